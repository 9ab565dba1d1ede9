#include "bench/fleet/fleet_setup.h"

#include <thread>

#include "federation/client/base64.h"
#include "federation/client/resource_client.h"

namespace kf::bench {
namespace {

const GroupVersionResource kSecrets{"", "v1", "secrets", true};
const GroupVersionResource kKubeFedClusters{"core.kubefed.io", "v1beta1", "kubefedclusters", true};
const GroupVersionResource kFederatedNamespaces{"types.kubefed.io", "v1beta1",
                                                "federatednamespaces", true};

Json placement(const std::vector<sim::SimulatedMember>& members) {
  Json clusters = Json::array();
  for (const auto& member : members) clusters.push_back({{"name", member.name}});
  return {{"clusters", clusters}};
}

bool ready(const Json& cluster) {
  for (const Json& condition :
       cluster.value("status", Json::object()).value("conditions", Json::array())) {
    if (condition.value("type", "") == "Ready" && condition.value("status", "") == "True") {
      return true;
    }
  }
  return false;
}

Status created(Result<Json> result, const std::string& what) {
  if (!result && !isAlreadyExists(result.error())) {
    return makeError(result.error().reason, what + ": " + result.error().describe());
  }
  return boost::outcome_v2::success();
}

}  // namespace

Status joinMembers(RestClient& host, const std::vector<sim::SimulatedMember>& members,
                   const std::string& ca_pem, const std::string& kubefed_namespace) {
  ResourceClient secrets(host, kSecrets, kubefed_namespace);
  ResourceClient clusters(host, kKubeFedClusters, kubefed_namespace);
  for (const auto& member : members) {
    const std::string secret_name = member.name + "-token";
    KF_TRYV(created(secrets.create({{"apiVersion", "v1"},
                                    {"kind", "Secret"},
                                    {"metadata", {{"name", secret_name}}},
                                    {"data", {{"token", base64Encode(member.token)}}}}),
                    "Secret " + secret_name));
    KF_TRYV(created(clusters.create({{"apiVersion", "core.kubefed.io/v1beta1"},
                                     {"kind", "KubeFedCluster"},
                                     {"metadata", {{"name", member.name}}},
                                     {"spec",
                                      {{"apiEndpoint", member.server()},
                                       {"caBundle", base64Encode(ca_pem)},
                                       {"secretRef", {{"name", secret_name}}}}}}),
                    "KubeFedCluster " + member.name));
  }
  return boost::outcome_v2::success();
}

Status waitUntilClustersReady(RestClient& host, const std::string& kubefed_namespace, int count,
                              std::chrono::seconds timeout) {
  ResourceClient clusters(host, kKubeFedClusters, kubefed_namespace);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int last = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    auto listed = clusters.listAll({});
    if (listed) {
      last = static_cast<int>(
          std::count_if(listed.value().items.begin(), listed.value().items.end(), ready));
      if (last >= count) return boost::outcome_v2::success();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return makeError(Reason::kTimeout, std::to_string(last) + " of " + std::to_string(count) +
                                         " KubeFedClusters Ready after " +
                                         std::to_string(timeout.count()) + " s");
}

Status federateNamespace(RestClient& host, const std::string& ns,
                         const std::vector<sim::SimulatedMember>& members) {
  KF_TRYV(created(
      ResourceClient(host, kNamespaces)
          .create({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}}),
      "Namespace " + ns));
  return created(ResourceClient(host, kFederatedNamespaces, ns)
                     .create({{"apiVersion", "types.kubefed.io/v1beta1"},
                              {"kind", "FederatedNamespace"},
                              {"metadata", {{"name", ns}, {"namespace", ns}}},
                              {"spec", {{"placement", placement(members)}}}}),
                 "FederatedNamespace " + ns);
}

Json federatedConfigMap(const std::string& ns, const std::string& name, const std::string& rev,
                        const std::vector<sim::SimulatedMember>& members) {
  return {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedConfigMap"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"template", {{"data", {{"rev", rev}, {"payload", "x"}}}}},
            {"placement", placement(members)}}}};
}

}  // namespace kf::bench
