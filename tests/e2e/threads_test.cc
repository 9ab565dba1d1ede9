// The controller manager's threads do not grow with the fleet: with ten joined clusters it runs
// as many as with two. The eight extra clusters are the two member API servers joined again
// under other names, which the controller treats as clusters of their own (their own clients,
// informers, watches and member operations). Clusters that share a server see each other's
// objects, so every object here is placed on every cluster, with the same content everywhere:
// then each cluster's sync path is in use and none of them removes what another one wrote.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "federation/client/resource_client.h"
#include "tests/e2e/federation_fixture.h"
#include "tests/e2e/kubefedctl_runner.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using std::chrono::seconds;

const std::vector<std::string> kThreadTypes = {"namespaces", "configmaps", "secrets"};

// The "Threads:" line of /proc/<pid>/status; -1 when it cannot be read.
int threadsOf(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("Threads:")) return std::stoi(line.substr(8));
  }
  return -1;
}

// spec.placement naming each of `clusters`.
Json placementOn(const std::vector<std::string>& clusters) {
  Json names = Json::array();
  for (const std::string& cluster : clusters) names.push_back({{"name", cluster}});
  return {{"clusters", names}};
}

// Whether the federated object says it reached exactly `clusters`, all without error.
bool propagatedTo(const Json& federated, const std::vector<std::string>& clusters) {
  const Json& status = federated.value("status", Json::object());
  if (status.value("observedGeneration", 0) != federated["metadata"].value("generation", -1)) {
    return false;
  }
  std::vector<std::string> reached;
  for (const Json& cluster : status.value("clusters", Json::array())) {
    if (cluster.contains("status")) return false;  // an error, or waiting for removal
    reached.push_back(cluster.value("name", ""));
  }
  std::vector<std::string> wanted = clusters;
  std::sort(wanted.begin(), wanted.end());
  std::sort(reached.begin(), reached.end());
  return reached == wanted;
}

class ThreadsE2ETest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    auto config = fed_.createKubeFedConfig();
    ASSERT_TRUE(config) << config.error().describe();
    ASSERT_TRUE(fed_.startManager()) << fed_.manager().log();
    ASSERT_EQ(fed_.joinMembers(), "");
    ASSERT_EQ(fed_.enableTypes(kThreadTypes), "");
  }
  void TearDown() override {
    // The controller manager first: unjoining a cluster deletes the KubeFed namespace in its
    // server, which holds the other names' tokens too, and the manager would spend its shutdown
    // on clusters answering 401.
    fed_.shutDown();
    for (const std::string& alias : aliases_) {
      fed_.kubefedctl({"unjoin", alias, "--cluster-context", serverOf(alias), "--host-cluster-name",
                       fed_.kubefedNamespace(), "--force"});
    }
  }

  const std::string& ns() { return fed_.workNamespace(); }
  // Which member API server a cluster name stands for: member3, member5, ... are member1's.
  static std::string serverOf(const std::string& cluster) {
    return std::stoi(cluster.substr(6)) % 2 == 1 ? "member1" : "member2";
  }

  void joinAlias(const std::string& alias) {
    aliases_.push_back(alias);
    const RunResult joined = fed_.kubefedctl({"join", alias, "--cluster-context", serverOf(alias),
                                              "--host-cluster-name", fed_.kubefedNamespace()});
    ASSERT_EQ(joined.exit_code, 0) << describe(joined);
  }

  // The work namespace and one ConfigMap federated to `clusters`, created or re-placed; waits
  // until both report every cluster reached.
  void federateTo(const std::vector<std::string>& clusters) {
    const std::vector<std::pair<GroupVersionResource, Json>> objects = {
        {kFederatedNamespaces,
         {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedNamespace"},
          {"metadata", {{"name", ns()}, {"namespace", ns()}}},
          {"spec", {{"placement", placementOn(clusters)}}}}},
        {kFederatedConfigMaps,
         {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedConfigMap"},
          {"metadata", {{"name", "everywhere"}, {"namespace", ns()}}},
          {"spec",
           {{"template", {{"data", {{"key", "value"}}}}}, {"placement", placementOn(clusters)}}}}}};
    for (const auto& [resource, object] : objects) {
      ResourceClient client(fed_.host(), resource, ns());
      const std::string name = object["metadata"]["name"];
      auto written = client.get(name) ? client.patch(name, PatchType::kMerge,
                                                     Json{{"spec", object["spec"]}}.dump())
                                      : client.create(object);
      ASSERT_TRUE(written) << written.error().describe();
    }
    for (const auto& [resource, object] : objects) {
      ResourceClient client(fed_.host(), resource, ns());
      const std::string name = object["metadata"]["name"];
      EXPECT_TRUE(eventually(
          [&] {
            auto federated = client.get(name);
            return federated && propagatedTo(federated.value(), clusters);
          },
          seconds(120)))
          << name << " did not reach every cluster: "
          << (client.get(name) ? client.get(name).value().value("status", Json()).dump() : "")
          << "\n"
          << fed_.manager().log().substr(0, 4000);
    }
  }

  E2EFederation fed_{{.prefix = "kf-threads"}};
  std::vector<std::string> aliases_;
};

// Verifies that eight more member clusters, each with informers of three types and a propagated
// namespace and ConfigMap, leave the controller manager's thread count where two left it.
TEST_F(ThreadsE2ETest, TenMembersRunOnAsManyThreadsAsTwo) {
  std::vector<std::string> clusters = {"member1", "member2"};
  federateTo(clusters);
  const pid_t pid = fed_.manager().pid();
  const int with_two = threadsOf(pid);
  ASSERT_GT(with_two, 0);

  for (int i = 3; i <= 10; ++i) {
    clusters.push_back("member" + std::to_string(i));
    joinAlias(clusters.back());
  }
  federateTo(clusters);
  // A start or stop of something short-lived may be under way at any one reading. -1 (the
  // process is gone) is not a low count.
  int with_ten = -1;
  EXPECT_TRUE(eventually(
      [&] {
        with_ten = threadsOf(pid);
        return with_ten > 0 && with_ten <= with_two;
      },
      seconds(30)))
      << "threads with two members: " << with_two << ", with ten: " << with_ten;
  RecordProperty("threads_with_2_members", with_two);
  RecordProperty("threads_with_10_members", with_ten);
  std::cout << "controller-manager threads: " << with_two << " with 2 members, " << with_ten
            << " with 10\n";
}

}  // namespace
}  // namespace kf::integration
