#include "cmd/kubefedctl/completion_sources.h"

#include <algorithm>
#include <set>

#include "cmd/kubefedctl/host_resources.h"
#include "federation/client/discovery.h"
#include "federation/client/resource_client.h"
#include "federation/crdgen/lookup.h"
#include "federation/crdgen/names.h"

namespace kf::kubefedctl {
namespace {

const GroupVersionResource kKubeFedClusterResource{"core.kubefed.io", "v1beta1", "kubefedclusters",
                                                   true};

// A shell waits for completion: one attempt with short deadlines, never a retry loop.
std::unique_ptr<RestClient> completionClient(const GlobalOptions& global) {
  auto kubeconfig = global.loadKubeconfig();
  if (!kubeconfig) return nullptr;
  auto config = restConfigFor(kubeconfig.value(), global.host_cluster_context);
  if (!config) return nullptr;
  RestConfig settings = std::move(config).value();
  settings.user_agent = "kubefedctl";
  settings.qps = 50;
  settings.burst = 100;
  settings.connect_timeout = std::chrono::seconds(2);
  settings.request_timeout = std::chrono::seconds(5);
  auto transport = makeTransport(settings);
  if (!transport) return nullptr;
  return std::make_unique<RestClient>(settings, std::move(transport).value(), realClock(),
                                      RetryPolicy{.max_attempts = 1});
}

std::vector<Json> listed(const GlobalOptions& global, const GroupVersionResource& resource,
                         const std::string& ns) {
  auto client = completionClient(global);
  if (client == nullptr) return {};
  auto list = ResourceClient(*client, resource, ns).listAll({});
  return list ? std::move(list.value().items) : std::vector<Json>{};
}

std::vector<std::string> names(const std::vector<Json>& objects) {
  std::vector<std::string> out;
  for (const auto& object : objects) out.push_back(objectName(object));
  return out;
}

Completion words(std::vector<std::string> values) { return {std::move(values), false}; }

}  // namespace

std::vector<std::string> contextNames(const GlobalOptions& global) {
  auto kubeconfig = global.loadKubeconfig();
  return kubeconfig ? kubeconfig.value().contextNames() : std::vector<std::string>{};
}

std::vector<std::string> typeConfigNames(const GlobalOptions& global) {
  return names(listed(global, kTypeConfigs, global.kubefed_namespace));
}

std::vector<std::string> federatedTypeNames(const GlobalOptions& global) {
  std::set<std::string> out;
  for (const auto& ftc : listed(global, kTypeConfigs, global.kubefed_namespace)) {
    const Json federated = ftc.value("spec", Json::object()).value("federatedType", Json::object());
    if (federated.contains("pluralName")) out.insert(federated.value("pluralName", ""));
  }
  return {out.begin(), out.end()};
}

std::vector<std::string> kubefedClusterNames(const GlobalOptions& global) {
  return names(listed(global, kKubeFedClusterResource, global.kubefed_namespace));
}

std::vector<std::string> namespaceNames(const GlobalOptions& global) {
  return names(listed(global, kNamespaces, ""));
}

std::vector<std::string> apiTypeNames(const GlobalOptions& global) {
  auto client = completionClient(global);
  if (client == nullptr) return {};
  DiscoveryClient discovery(*client);
  auto resources = preferredResources(discovery);
  if (!resources) return {};
  std::set<std::string> out;
  for (const auto& resource : resources.value()) {
    // Subresources ("pods/status") are not types.
    if (resource.name.find('/') != std::string::npos) continue;
    out.insert(groupQualifiedName(resource.name, resource.group));
  }
  return {out.begin(), out.end()};
}

std::vector<std::string> objectNames(const GlobalOptions& global, const std::string& type,
                                     const std::string& ns) {
  auto client = completionClient(global);
  if (client == nullptr) return {};
  DiscoveryClient discovery(*client);
  auto resource = lookupApiResource(discovery, type, "");
  if (!resource) return {};
  auto list = ResourceClient(*client, resource.value().gvr(), ns).listAll({});
  return list ? names(list.value().items) : std::vector<std::string>{};
}

Completion completeGlobalFlag(const GlobalOptions& global, const std::string& flag) {
  if (flag == "host-cluster-context" || flag == "cluster-context") {
    return words(contextNames(global));
  }
  if (flag == "kubeconfig" || flag == "filename" || flag == "log-file" || flag == "log-dir") {
    return {{}, true};
  }
  if (flag == "namespace" || flag == "kubefed-namespace") return words(namespaceNames(global));
  if (flag == "output") return words({"yaml"});
  return {};
}

}  // namespace kf::kubefedctl
