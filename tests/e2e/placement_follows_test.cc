// Dependencies that follow their workloads end to end (kubefed-cpp.io/placement-follows:
// workloads): the controller-manager binary, two members joined at the start and the host joined
// later as a member of itself, a FederatedConfigMap that follows two FederatedDeployments, and
// what the members hold checked directly, in the order the members stored it.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "federation/client/resource_client.h"
#include "tests/e2e/federation_fixture.h"
#include "tests/e2e/kubefedctl_runner.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using std::chrono::seconds;

const GroupVersionResource kFollowsFederatedDeployments{"types.kubefed.io", "v1beta1",
                                                        "federateddeployments", true};
const GroupVersionResource kResourceQuotas{"", "v1", "resourcequotas", true};
constexpr char kJoiningHost[] = "kf-follows-host";
constexpr char kConfig[] = "app-config";

Json clusterList(const std::vector<std::string>& clusters) {
  Json out = Json::array();
  for (const std::string& cluster : clusters) out.push_back({{"name", cluster}});
  return {{"clusters", out}};
}

class FollowsFederation : public E2EFederation {
 public:
  FollowsFederation()
      : E2EFederation(
            {.prefix = "kf-follows",
             .members = {"member1", "member2"},
             .host_member = kJoiningHost,
             // A follower whose creation failed is retried within 2 s, well inside
             // the 30 s a workload waits for it.
             .manager_flags = {"--rest-config-qps", "100", "--rest-config-burst", "200",
                               "--sync-backoff-initial", "1s", "--sync-backoff-max", "2s"}}) {
    EXPECT_EQ(ensureKubeFedCrds(), "");
    auto config = createKubeFedConfig();
    EXPECT_TRUE(config) << config.error().describe();
    EXPECT_TRUE(startManager()) << manager().log();
    EXPECT_EQ(join("member1"), "");
    EXPECT_EQ(join("member2"), "");
    EXPECT_EQ(enableTypes({"namespaces", "configmaps", "deployments.apps"}), "");
    auto created =
        ResourceClient(host(), kFederatedNamespaces, workNamespace())
            .create({{"apiVersion", "types.kubefed.io/v1beta1"},
                     {"kind", "FederatedNamespace"},
                     {"metadata", {{"name", workNamespace()}, {"namespace", workNamespace()}}},
                     {"spec", {{"placement", clusterList(memberNames())}}}});
    EXPECT_TRUE(created) << created.error().describe();
  }

  // A FederatedConfigMap that follows its workloads; its own placement (none) is ignored.
  void createFollower() {
    auto created =
        ResourceClient(host(), kFederatedConfigMaps, workNamespace())
            .create({{"apiVersion", "types.kubefed.io/v1beta1"},
                     {"kind", "FederatedConfigMap"},
                     {"metadata",
                      {{"name", kConfig},
                       {"namespace", workNamespace()},
                       {"annotations", {{"kubefed-cpp.io/placement-follows", "workloads"}}}}},
                     {"spec",
                      {{"template", {{"data", {{"mode", "follows"}}}}},
                       {"placement", clusterList({})}}}});
    ASSERT_TRUE(created) << created.error().describe();
  }

  // A FederatedDeployment whose pod template references the ConfigMap through `pod_spec`.
  void createDeployment(const std::string& name, const Json& pod_spec,
                        const std::vector<std::string>& clusters) {
    auto created =
        ResourceClient(host(), kFollowsFederatedDeployments, workNamespace())
            .create({{"apiVersion", "types.kubefed.io/v1beta1"},
                     {"kind", "FederatedDeployment"},
                     {"metadata", {{"name", name}, {"namespace", workNamespace()}}},
                     {"spec",
                      {{"template",
                        {{"spec",
                          {{"replicas", 0},
                           {"selector", {{"matchLabels", {{"app", name}}}}},
                           {"template",
                            {{"metadata", {{"labels", {{"app", name}}}}}, {"spec", pod_spec}}}}}}},
                       {"placement", clusterList(clusters)}}}});
    ASSERT_TRUE(created) << created.error().describe();
  }

  void placeDeployment(const std::string& name, const std::vector<std::string>& clusters) {
    auto patched = ResourceClient(host(), kFollowsFederatedDeployments, workNamespace())
                       .patch(name, PatchType::kMerge,
                              Json{{"spec", {{"placement", clusterList(clusters)}}}}.dump());
    ASSERT_TRUE(patched) << patched.error().describe();
  }

  // The resourceVersion of the member's object; nullopt when it holds none.
  std::optional<std::uint64_t> storedAt(const std::string& cluster,
                                        const GroupVersionResource& resource,
                                        const std::string& name) {
    auto got = ResourceClient(member(cluster), resource, workNamespace()).get(name);
    if (!got) return std::nullopt;
    return std::stoull(objectResourceVersion(got.value()));
  }

  // The members that hold the ConfigMap.
  std::set<std::string> configHolders() {
    std::set<std::string> out;
    for (const std::string& cluster : memberNames()) {
      if (storedAt(cluster, kConfigMaps, kConfig)) out.insert(cluster);
    }
    return out;
  }

  std::string describeHolders() {
    std::string out = "the ConfigMap is in:";
    for (const std::string& cluster : configHolders()) out += " " + cluster;
    return out;
  }

  // The status entry of `cluster` on the federated deployment `name` ("" when OK), or nullopt
  // when the status lists no such cluster.
  std::optional<std::string> deploymentStatusIn(const std::string& name,
                                                const std::string& cluster) {
    auto got = ResourceClient(host(), kFollowsFederatedDeployments, workNamespace()).get(name);
    if (!got) return std::nullopt;
    for (const Json& entry : got.value().value("/status/clusters"_json_pointer, Json::array())) {
      if (entry.value("name", "") == cluster) return entry.value("status", "");
    }
    return std::nullopt;
  }

  bool hasEvent(const std::string& object, const std::string& reason) {
    ListOptions options;
    options.field_selector = "involvedObject.name=" + object + ",reason=" + reason;
    auto listed = ResourceClient(host(), kEvents, workNamespace()).list(options);
    return listed && !listed.value().items.empty();
  }
};

const Json kEnvFromConfig = {{"containers",
                              {{{"name", "c"},
                                {"image", "app:1"},
                                {"envFrom", {{{"configMapRef", {{"name", kConfig}}}}}}}}}};
const Json kVolumeOfConfig = {
    {"containers", {{{"name", "c"}, {"image", "app:1"}}}},
    {"volumes", {{{"name", "config"}, {"configMap", {{"name", kConfig}}}}}}};

// Verifies the acceptance: the ConfigMap lands exactly where the two Deployments
// referencing it are placed (the union), before them; moves when one's placement changes; stays
// in a cluster while a referencing workload remains there; and in a cluster that joins later is
// created before the Deployment, which waits for it.
TEST(PlacementFollowsE2ETest, FollowsTheUnionOfItsWorkloadsAndComesFirst) {
  FollowsFederation fed;
  ASSERT_FALSE(testing::Test::HasFailure()) << fed.manager().log();
  fed.createFollower();
  fed.createDeployment("a", kEnvFromConfig, {"member1"});
  fed.createDeployment("b", kVolumeOfConfig, {"member2"});

  // The union, and in each member the ConfigMap stored before the Deployment.
  const std::set<std::string> both = {"member1", "member2"};
  ASSERT_TRUE(eventually(
      [&] {
        return fed.configHolders() == both && fed.storedAt("member1", kDeployments, "a") &&
               fed.storedAt("member2", kDeployments, "b");
      },
      seconds(60)))
      << fed.describeHolders() << "\n"
      << fed.manager().log();
  EXPECT_LT(*fed.storedAt("member1", kConfigMaps, kConfig),
            *fed.storedAt("member1", kDeployments, "a"));
  EXPECT_LT(*fed.storedAt("member2", kConfigMaps, kConfig),
            *fed.storedAt("member2", kDeployments, "b"));
  EXPECT_TRUE(eventually([&] { return fed.hasEvent(kConfig, "PlacementFollowsWorkloads"); }));
  // kubefedctl plan predicts from the same union: nothing to write, and where it comes from.
  const RunResult plan =
      fed.kubefedctl({"plan", "federatedconfigmaps", kConfig, "-n", fed.workNamespace()});
  EXPECT_EQ(plan.exit_code, 0) << describe(plan);
  EXPECT_NE(plan.out.find("placement follows workloads (its own placement is ignored):\n"
                          "    FederatedDeployment \"a\": member1\n"
                          "    FederatedDeployment \"b\": member2\n"),
            std::string::npos)
      << describe(plan);

  // b moves to member1: no workload references the ConfigMap in member2 any more.
  fed.placeDeployment("b", {"member1"});
  EXPECT_TRUE(eventually([&] {
    return fed.configHolders() == std::set<std::string>{"member1"} &&
           !fed.storedAt("member2", kDeployments, "b");
  })) << fed.describeHolders();

  // a leaves member1, where b remains: the ConfigMap stays. Then b moves to member2: it follows.
  fed.placeDeployment("a", {});
  ASSERT_TRUE(eventually([&] { return !fed.storedAt("member1", kDeployments, "a"); }));
  EXPECT_EQ(fed.configHolders(), std::set<std::string>{"member1"});
  fed.placeDeployment("b", {"member2"});
  EXPECT_TRUE(eventually([&] { return fed.configHolders() == std::set<std::string>{"member2"}; }))
      << fed.describeHolders();

  // A cluster joins where b is placed, and the ConfigMap cannot be created there yet (a quota):
  // the Deployment waits for it, and is created after it once the quota is gone.
  auto quota =
      ResourceClient(fed.host(), kResourceQuotas, fed.workNamespace())
          .create({{"apiVersion", "v1"},
                   {"kind", "ResourceQuota"},
                   {"metadata", {{"name", "no-configmaps"}, {"namespace", fed.workNamespace()}}},
                   {"spec", {{"hard", {{"count/configmaps", "0"}}}}}});
  ASSERT_TRUE(quota) << quota.error().describe();
  fed.placeDeployment("b", {"member2", kJoiningHost});
  ASSERT_EQ(fed.join(kJoiningHost), "");
  EXPECT_TRUE(eventually([&] {
    return fed.deploymentStatusIn("b", kJoiningHost) == "WaitingForDependencies";
  })) << fed.manager().log();
  EXPECT_FALSE(fed.storedAt(kJoiningHost, kDeployments, "b"));
  EXPECT_TRUE(fed.hasEvent("b", "WaitingForDependencies"));
  ASSERT_TRUE(
      ResourceClient(fed.host(), kResourceQuotas, fed.workNamespace()).remove("no-configmaps"));
  ASSERT_TRUE(eventually(
      [&] {
        return fed.storedAt(kJoiningHost, kConfigMaps, kConfig) &&
               fed.storedAt(kJoiningHost, kDeployments, "b");
      },
      seconds(30)))
      << fed.describeHolders() << "\n"
      << fed.manager().log();
  EXPECT_LT(*fed.storedAt(kJoiningHost, kConfigMaps, kConfig),
            *fed.storedAt(kJoiningHost, kDeployments, "b"));
  EXPECT_FALSE(fed.hasEvent("b", "DependenciesNotPropagated"));
}

}  // namespace
}  // namespace kf::integration
