// The scheduling manager and the RSP controller as a whole on fake API servers, over real
// informers: plugins start and stop with their FTC's propagation (and the informers they leased
// go with them), the RSP controller runs only while a plugin does, and an RSP placed over a
// member's workload reaches the federated object.

#include "controllers/scheduling/scheduling_manager.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "federation/client/resource_client.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"
#include "tests/support/fake_event_recorder.h"

namespace kf::scheduling {
namespace {

using std::chrono::seconds;
using test::FakeApiServer;
using test::FakeClock;
using test::FakeEventRecorder;

constexpr char kKubeFedNs[] = "kf";
const GroupVersionResource kFtcs{"core.kubefed.io", "v1beta1", "federatedtypeconfigs", true};
const GroupVersionResource kRsps{"scheduling.kubefed.io", "v1alpha1",
                                 "replicaschedulingpreferences", true};
const GroupVersionResource kHostFederatedDeployments{"types.kubefed.io", "v1beta1",
                                                     "federateddeployments", true};
const GroupVersionResource kDeployments{"apps", "v1", "deployments", true};

// Waits (in real time, generously) for a condition the controllers' threads make true.
bool eventually(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + seconds(30);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

Json apiResource(const std::string& group, const std::string& kind, const std::string& plural) {
  return {{"group", group},
          {"version", group == "types.kubefed.io" ? "v1beta1" : "v1"},
          {"kind", kind},
          {"pluralName", plural},
          {"scope", "Namespaced"}};
}

Json ftc(const std::string& name, const std::string& propagation) {
  Json target = name == "namespaces" ? apiResource("", "Namespace", "namespaces")
                                     : apiResource("apps", "Deployment", "deployments");
  if (name == "namespaces") target["scope"] = "Cluster";
  const Json federated =
      name == "namespaces"
          ? apiResource("types.kubefed.io", "FederatedNamespace", "federatednamespaces")
          : apiResource("types.kubefed.io", "FederatedDeployment", "federateddeployments");
  return {{"apiVersion", "core.kubefed.io/v1beta1"},
          {"kind", "FederatedTypeConfig"},
          {"metadata", {{"name", name}, {"namespace", kKubeFedNs}}},
          {"spec",
           {{"targetType", target}, {"propagation", propagation}, {"federatedType", federated}}}};
}

class SchedulingManagerTest : public ::testing::Test {
 protected:
  ~SchedulingManagerTest() override {
    manager_.stop();
    member_informers_.stopAll();
    host_informers_.stopAll();
  }

  FakeClock clock_;
  FakeApiServer host_{clock_};
  FakeApiServer member1_{clock_};
  FakeApiServer member2_{clock_};
  std::shared_ptr<RestClient> host_client_ = host_.client();
  ClusterRegistry registry_{clock_};
  InformerManager host_informers_{[this](const InformerKey& key) {
                                    return makeListerWatcher(host_client_, key.resource,
                                                             key.namespace_name, key.label_selector,
                                                             key.field_selector);
                                  },
                                  clock_};
  InformerManager member_informers_{
      [this](const InformerKey& key) -> ListerWatcherPtr {
        auto client = registry_.client(key.cluster);
        if (!client) return nullptr;
        return makeListerWatcher(std::move(client).value(), key.resource, key.namespace_name,
                                 key.label_selector, key.field_selector);
      },
      clock_};
  FakeEventRecorder events_;
  SchedulingManager manager_{RspControllerDeps{.config = {.kubefed_namespace = kKubeFedNs},
                                               .host = host_client_,
                                               .clusters = registry_,
                                               .host_informers = host_informers_,
                                               .member_informers = member_informers_,
                                               .events = events_,
                                               .clock = clock_}};
};

TEST_F(SchedulingManagerTest, APluginRunsWhilePropagationIsEnabledAndIsJoinedWhenDisabled) {
  host_.put(kFtcs, ftc("namespaces", "Enabled"));
  host_.put(kFtcs, ftc("deployments.apps", "Enabled"));
  ASSERT_TRUE(manager_.start());
  ASSERT_TRUE(eventually(
      [&] { return manager_.plugins() == std::vector<std::string>{"deployments.apps"}; }));
  EXPECT_TRUE(manager_.rspControllerRunning());
  // FTCs (shared), RSPs, FederatedDeployments.
  EXPECT_EQ(host_informers_.liveInformerCount(), 3u);

  host_.put(kFtcs, ftc("deployments.apps", "Disabled"));
  // Stopped and joined: only the FTC informer is left.
  ASSERT_TRUE(eventually([&] {
    return !manager_.rspControllerRunning() && host_informers_.liveInformerCount() == 1u;
  }));
  EXPECT_TRUE(manager_.plugins().empty());

  // Enabled again: a new RSP controller and plugin.
  host_.put(kFtcs, ftc("deployments.apps", "Enabled"));
  EXPECT_TRUE(eventually(
      [&] { return manager_.plugins() == std::vector<std::string>{"deployments.apps"}; }));
  manager_.stop();
  EXPECT_FALSE(manager_.rspControllerRunning());
  EXPECT_EQ(host_informers_.liveInformerCount(), 0u);
}

TEST_F(SchedulingManagerTest, APluginWaitsForTheNamespacesFtc) {
  host_.put(kFtcs, ftc("deployments.apps", "Enabled"));
  host_.put(kFtcs, ftc("configmaps", "Enabled"));  // not scheduled
  ASSERT_TRUE(manager_.start());
  ASSERT_TRUE(eventually([&] { return host_informers_.liveInformerCount() == 1u; }));
  ASSERT_TRUE(host_.waitForRequests(2));
  EXPECT_FALSE(manager_.rspControllerRunning());
  // Its arrival queues the scheduling FTCs at once (no backoff to wait for).
  host_.put(kFtcs, ftc("namespaces", "Enabled"));
  EXPECT_TRUE(eventually(
      [&] { return manager_.plugins() == std::vector<std::string>{"deployments.apps"}; }));
}

TEST_F(SchedulingManagerTest, AnRspOverAMembersWorkloadReachesTheFederatedObject) {
  registry_.upsert(ClusterSnapshot{.name = "member1", .ready = true}, member1_.client());
  registry_.upsert(ClusterSnapshot{.name = "member2", .ready = true}, member2_.client());
  host_.put(kFtcs, ftc("namespaces", "Enabled"));
  host_.put(kFtcs, ftc("deployments.apps", "Enabled"));
  host_.put(kHostFederatedDeployments, {{"apiVersion", "types.kubefed.io/v1beta1"},
                                        {"kind", "FederatedDeployment"},
                                        {"metadata", {{"name", "web"}, {"namespace", "work"}}},
                                        {"spec", {{"template", Json::object()}}}});
  // member2 runs 4 replicas of it already (managed by the sync controller).
  member2_.put(
      kDeployments,
      {{"apiVersion", "apps/v1"},
       {"kind", "Deployment"},
       {"metadata",
        {{"name", "web"}, {"namespace", "work"}, {"labels", {{"kubefed.io/managed", "true"}}}}},
       {"spec", {{"replicas", 4}, {"selector", {{"matchLabels", {{"app", "web"}}}}}}},
       {"status", {{"readyReplicas", 4}}}});
  host_.put(kRsps, {{"apiVersion", "scheduling.kubefed.io/v1alpha1"},
                    {"kind", "ReplicaSchedulingPreference"},
                    {"metadata", {{"name", "web"}, {"namespace", "work"}}},
                    {"spec", {{"targetKind", "FederatedDeployment"}, {"totalReplicas", 6}}}});
  ASSERT_TRUE(manager_.start());
  auto replicas = [&] {
    auto object = host_.get(kHostFederatedDeployments, "work", "web");
    std::map<std::string, Json> out;
    if (!object) return out;
    for (const Json& entry : (*object)["spec"].value("overrides", Json::array())) {
      out[entry["clusterName"]] = entry["clusterOverrides"][0]["value"];
    }
    return out;
  };
  // Without rebalance member2 keeps its 4 and member1 gets the other 2.
  const std::map<std::string, Json> expected = {{"member1", 2}, {"member2", 4}};
  // An RSP looked at before every cache was in is looked at again after the cluster sync delay.
  ASSERT_TRUE(eventually([&] {
    clock_.advance(seconds(1));
    return replicas() == expected;
  })) << host_.writes().size();

  // A member workload's change is looked at (after the retry delay): member2 runs 5 now.
  member2_.put(
      kDeployments,
      {{"apiVersion", "apps/v1"},
       {"kind", "Deployment"},
       {"metadata",
        {{"name", "web"}, {"namespace", "work"}, {"labels", {{"kubefed.io/managed", "true"}}}}},
       {"spec", {{"replicas", 5}, {"selector", {{"matchLabels", {{"app", "web"}}}}}}},
       {"status", {{"readyReplicas", 5}}}});
  const std::map<std::string, Json> kept = {{"member1", 1}, {"member2", 5}};
  EXPECT_TRUE(eventually([&] {
    clock_.advance(seconds(10));
    return replicas() == kept;
  }));
  // The RSP asks for rebalancing now: the RSP's own change is reconciled at once.
  auto rsp = host_.get(kRsps, "work", "web");
  ASSERT_TRUE(rsp);
  (*rsp)["spec"]["rebalance"] = true;
  host_.put(kRsps, *rsp);
  const std::map<std::string, Json> rebalanced = {{"member1", 3}, {"member2", 3}};
  EXPECT_TRUE(eventually([&] { return replicas() == rebalanced; }));
}

}  // namespace
}  // namespace kf::scheduling
