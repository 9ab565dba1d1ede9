// The ReplicaSchedulingPreference reconciler end to end on fake API servers: the host holds the
// federated objects (and FederatedNamespaces), each member serves its pods; the caches the
// reconciler reads are filled by the test as the informers would. The planner's known outputs
// (spec §6) are checked in the federated object the reconciler writes.

#include "controllers/scheduling/rsp_reconciler.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>

#include "apis/meta/time.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"
#include "tests/support/fake_event_recorder.h"

namespace kf::scheduling {
namespace {

using test::FakeApiServer;
using test::FakeClock;
using test::FakeEventRecorder;

constexpr char kNs[] = "work";
constexpr char kName[] = "web";
constexpr char kKey[] = "work/web";
const GroupVersionResource kFederatedDeployments{"types.kubefed.io", "v1beta1",
                                                 "federateddeployments", true};
const GroupVersionResource kFederatedNamespaces{"types.kubefed.io", "v1beta1",
                                                "federatednamespaces", true};
const GroupVersionResource kPods{"", "v1", "pods", true};

// The plugin's caches, filled by the test.
class CachedType final : public ScheduledType {
 public:
  const GroupVersionResource& federatedResource() const override { return kFederatedDeployments; }
  const GroupVersionResource& federatedNamespaceResource() const override {
    return kFederatedNamespaces;
  }
  bool synced() const override { return synced_; }
  ObjectPtr federatedObject(const std::string& key) const override { return federated.get(key); }
  ObjectPtr memberWorkload(const std::string& cluster, const std::string& key) const override {
    auto it = workloads.find(cluster);
    return it == workloads.end() ? nullptr : it->second->get(key);
  }

  bool synced_ = true;
  Store federated;
  std::map<std::string, std::unique_ptr<Store>> workloads;
};

Json rspObject(const Json& spec) {
  return {{"apiVersion", "scheduling.kubefed.io/v1alpha1"},
          {"kind", "ReplicaSchedulingPreference"},
          {"metadata", {{"name", kName}, {"namespace", kNs}, {"uid", "rsp-uid"}}},
          {"spec", spec}};
}

Json federatedDeployment(const Json& placement = {{"clusters", Json::array()}},
                         const Json& overrides = Json::array()) {
  return {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedDeployment"},
          {"metadata", {{"name", kName}, {"namespace", kNs}}},
          {"spec",
           {{"template", {{"spec", {{"replicas", 1}}}}},
            {"placement", placement},
            {"overrides", overrides}}}};
}

Json workload(std::int64_t desired, std::int64_t ready) {
  return {{"apiVersion", "apps/v1"},
          {"kind", "Deployment"},
          {"metadata", {{"name", kName}, {"namespace", kNs}}},
          {"spec", {{"replicas", desired}, {"selector", {{"matchLabels", {{"app", kName}}}}}}},
          {"status", {{"readyReplicas", ready}}}};
}

// A pod's status: Running with a Ready condition.
Json runningPod() { return {{"phase", "Running"}, {"conditions", {{{"type", "Ready"}}}}}; }

// A pod's status: Pending, its scheduler refusing it since `since`.
Json unschedulablePod(std::chrono::system_clock::time_point since) {
  return {{"phase", "Pending"},
          {"conditions",
           {{{"type", "PodScheduled"},
             {"status", "False"},
             {"reason", "Unschedulable"},
             {"lastTransitionTime", meta::formatTime(since)}}}}};
}

// Fake servers, caches and the reconciler; a test may make more than one.
struct Harness {
  Harness() : host_(clock_), host_client_(host_.client()) {}

  // A ready member cluster with a fake API server of its own.
  FakeApiServer& addCluster(const std::string& name, StringMap labels = {}, bool ready = true) {
    auto& server = members_[name];
    server = std::make_unique<FakeApiServer>(clock_);
    registry_.upsert(ClusterSnapshot{.name = name, .ready = ready, .labels = std::move(labels)},
                     server->client());
    type_->workloads[name] = std::make_unique<Store>();
    return *server;
  }
  void putRsp(const Json& spec) { rsps_.add(makeObject(rspObject(spec))); }
  // On the host and in the plugin's cache.
  void putFederated(const Json& object) {
    type_->federated.add(makeObject(host_.put(kFederatedDeployments, object)));
  }
  void putWorkload(const std::string& cluster, const Json& object) {
    type_->workloads.at(cluster)->add(makeObject(object));
  }
  void putPod(const std::string& cluster, const std::string& name, const Json& status) {
    members_.at(cluster)->put(
        kPods, {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", kNs}, {"labels", {{"app", kName}}}}},
                {"status", status}});
  }

  ReconcileResult reconcile() { return reconciler_.reconcile(kKey); }
  ReconcileStatus reconcileOk() {
    ReconcileResult result = reconcile();
    EXPECT_TRUE(result) << (result ? "" : result.error().describe());
    return result ? result.value() : ReconcileStatus::kOk;
  }

  Json stored() { return host_.get(kFederatedDeployments, kNs, kName).value_or(Json()); }
  // The stored object's /spec/replicas override per cluster; -1 for a placed cluster without
  // one.
  std::map<std::string, std::int64_t> writtenReplicas() {
    const Json object = stored();
    std::map<std::string, std::int64_t> out;
    for (const Json& cluster : object["spec"]["placement"]["clusters"]) {
      out[cluster["name"].get<std::string>()] = -1;
    }
    for (const Json& entry : object["spec"]["overrides"]) {
      for (const Json& change : entry["clusterOverrides"]) {
        if (change["path"] == "/spec/replicas") {
          out[entry["clusterName"].get<std::string>()] = change["value"].get<std::int64_t>();
        }
      }
    }
    return out;
  }

  FakeClock clock_;
  FakeApiServer host_;
  std::shared_ptr<RestClient> host_client_;
  std::map<std::string, std::unique_ptr<FakeApiServer>> members_;
  ClusterRegistry registry_{clock_};
  Store rsps_;
  std::shared_ptr<CachedType> type_ = std::make_shared<CachedType>();
  FakeEventRecorder events_;
  RspReconciler reconciler_{
      RspReconcilerDeps{.rsps = rsps_,
                        .clusters = registry_,
                        .types = [this](const std::string& kind) -> ScheduledTypePtr {
                          return kind == "FederatedDeployment" ? type_ : nullptr;
                        },
                        .host = *host_client_,
                        .events = events_,
                        .clock = clock_}};
};

class RspReconcilerTest : public ::testing::Test, public Harness {};

struct PlannerCase {
  std::string name;
  std::vector<std::string> clusters;
  Json spec;
  std::map<std::string, std::int64_t> running;  // member workloads at their desired replicas
  std::map<std::string, std::int64_t> expected;
};

// The planner's known outputs (spec §6) whose result does not depend on the FNV tie order (the
// RSP's key "work/web" is part of the hash, the planner tests' key is empty).
std::vector<PlannerCase> plannerCases() {
  auto prefs = [](Json clusters) { return clusters; };
  return {
      {"NineOverTwoMembersWeightedOneToTwo",
       {"member1", "member2"},
       {{"targetKind", "FederatedDeployment"},
        {"totalReplicas", 9},
        {"clusters", prefs({{"member1", {{"weight", 1}}}, {"member2", {{"weight", 2}}}})}},
       {},
       {{"member1", 3}, {"member2", 6}}},
      {"NoPreferencesSpreadEvenly",
       {"A", "B"},
       {{"targetKind", "FederatedDeployment"}, {"totalReplicas", 50}},
       {},
       {{"A", 25}, {"B", 25}}},
      {"ClusterWithoutPreferenceIsPlacedWithZero",
       {"A", "B", "C"},
       {{"targetKind", "FederatedDeployment"},
        {"totalReplicas", 60},
        {"clusters", prefs({{"A", {{"weight", 1}}}, {"B", {{"weight", 2}}}})}},
       {},
       {{"A", 20}, {"B", 40}, {"C", 0}}},
      {"MaxReplicasCapWeights",
       {"A", "B", "C", "D"},
       {{"targetKind", "FederatedDeployment"},
        {"totalReplicas", 71},
        {"clusters", prefs({{"A", {{"weight", 10000}, {"maxReplicas", 10}}},
                            {"B", {{"weight", 1}}},
                            {"C", {{"weight", 1}, {"maxReplicas", 21}}},
                            {"D", {{"weight", 1}, {"maxReplicas", 10}}}})}},
       {},
       {{"A", 10}, {"B", 30}, {"C", 21}, {"D", 10}}},
      {"MinReplicasWithoutWeight",
       {"A", "B", "C"},
       {{"targetKind", "FederatedDeployment"},
        {"totalReplicas", 50},
        {"clusters", prefs({{"*", {{"minReplicas", 2}, {"weight", 0}}}})}},
       {},
       {{"A", 2}, {"B", 2}, {"C", 2}}},
      {"MinPassIgnoresMaxWeightedPassCaps",
       {"A", "B", "C"},
       {{"targetKind", "FederatedDeployment"},
        {"totalReplicas", 50},
        {"clusters", prefs({{"*", {{"minReplicas", 10}, {"weight", 1}, {"maxReplicas", 12}}}})}},
       {},
       {{"A", 12}, {"B", 12}, {"C", 12}}},
      {"RunningReplicasStayWithoutRebalance",
       {"A", "B", "C"},
       {{"targetKind", "FederatedDeployment"}, {"totalReplicas", 50}},
       {{"C", 30}},
       {{"A", 10}, {"B", 10}, {"C", 30}}},
      {"KnownImperfectionWithoutRebalance",
       {"A", "B"},
       {{"targetKind", "FederatedDeployment"}, {"totalReplicas", 50}},
       {{"A", 10}, {"B", 70}},
       {{"A", 0}, {"B", 50}}},
      {"RebalanceMovesRunningReplicas",
       {"A", "B", "C"},
       {{"targetKind", "FederatedDeployment"}, {"totalReplicas", 60}, {"rebalance", true}},
       {{"C", 30}},
       {{"A", 20}, {"B", 20}, {"C", 20}}},
      {"WorkloadOutsideTheCandidatesIsNotScheduled",
       {"A", "B"},
       {{"targetKind", "FederatedDeployment"},
        {"totalReplicas", 6},
        {"clusters", prefs({{"A", {{"weight", 1}}}})}},
       {{"B", 4}},
       {{"A", 6}, {"B", 0}}},
  };
}

TEST_F(RspReconcilerTest, WritesThePlannersKnownOutputsIntoTheFederatedObject) {
  for (const PlannerCase& c : plannerCases()) {
    SCOPED_TRACE(c.name);
    Harness fixture;  // a fresh host and members per case
    for (const auto& cluster : c.clusters) fixture.addCluster(cluster);
    for (const auto& [cluster, replicas] : c.running) {
      fixture.putWorkload(cluster, workload(replicas, replicas));
    }
    fixture.putRsp(c.spec);
    fixture.putFederated(federatedDeployment());
    EXPECT_EQ(fixture.reconcileOk(), ReconcileStatus::kOk);
    EXPECT_EQ(fixture.writtenReplicas(), c.expected) << fixture.stored().dump();
  }
}

TEST_F(RspReconcilerTest, WritesPlacementAndReplicasOverridesKeepingOtherOverrides) {
  addCluster("member1");
  addCluster("member2");
  putRsp({{"targetKind", "FederatedDeployment"},
          {"totalReplicas", 9},
          {"clusters", {{"member1", {{"weight", 1}}}, {"member2", {{"weight", 2}}}}}});
  putFederated(federatedDeployment(
      {{"clusterSelector", Json::object()}},
      {{{"clusterName", "member1"},
        {"clusterOverrides", {{{"path", "/metadata/labels"}, {"value", {{"x", "y"}}}}}}}}));
  ASSERT_EQ(reconcileOk(), ReconcileStatus::kOk);
  const Json written = stored();
  EXPECT_EQ(written["spec"]["placement"]["clusters"],
            Json::parse(R"([{"name":"member1"},{"name":"member2"}])"));
  EXPECT_EQ(written["spec"]["overrides"],
            Json::parse(R"([{"clusterName":"member1","clusterOverrides":[
              {"path":"/metadata/labels","value":{"x":"y"}},
              {"path":"/spec/replicas","value":3}]},
              {"clusterName":"member2","clusterOverrides":[{"path":"/spec/replicas","value":6}]}])"));
  EXPECT_EQ(host_.writes(), std::vector<std::string>{"MODIFIED federateddeployments/work/web"});
}

TEST_F(RspReconcilerTest, AnObjectThatCarriesTheResultCostsNoRequest) {
  addCluster("member1");
  addCluster("member2");
  putRsp({{"targetKind", "FederatedDeployment"}, {"totalReplicas", 4}});
  putFederated(federatedDeployment());
  ASSERT_EQ(reconcileOk(), ReconcileStatus::kOk);
  ASSERT_EQ(host_.writeCount(), 1u);
  // The informer delivers what was written.
  type_->federated.add(makeObject(stored()));
  const std::size_t requests = host_.requests().size();
  ASSERT_EQ(reconcileOk(), ReconcileStatus::kOk);
  EXPECT_EQ(host_.requests().size(), requests) << "no GET, no PUT";
}

TEST_F(RspReconcilerTest, AStaleCacheIsCheckedAgainstTheStoredObjectBeforeWriting) {
  addCluster("member1");
  putRsp({{"targetKind", "FederatedDeployment"}, {"totalReplicas", 4}});
  putFederated(federatedDeployment());
  ASSERT_EQ(reconcileOk(), ReconcileStatus::kOk);
  ASSERT_EQ(host_.writeCount(), 1u);
  // The cache still holds the old object: the stored one is read, and it needs nothing.
  ASSERT_EQ(reconcileOk(), ReconcileStatus::kOk);
  EXPECT_EQ(host_.writeCount(), 1u);
}

TEST_F(RspReconcilerTest, LongUnschedulablePodsLowerTheCapacityAndMoveReplicas) {
  addCluster("A");
  addCluster("B");
  // B wants 5 but runs 2; 3 pods cannot be scheduled for two minutes: it holds 2.
  putWorkload("B", workload(5, 2));
  putPod("B", "p1", runningPod());
  putPod("B", "p2", runningPod());
  for (const char* pod : {"p3", "p4", "p5"}) {
    putPod("B", pod, unschedulablePod(clock_.wallNow() - std::chrono::minutes(2)));
  }
  putRsp({{"targetKind", "FederatedDeployment"}, {"totalReplicas", 10}, {"rebalance", true}});
  putFederated(federatedDeployment());
  const ReconcileStatus result = reconcileOk();
  // Each gets 5; B is capped at 2 with 3 overflow, A takes the rest: B keeps 2 + 3 overflow.
  EXPECT_EQ(writtenReplicas(), (std::map<std::string, std::int64_t>{{"A", 8}, {"B", 5}}));
  EXPECT_EQ(result, ReconcileStatus::kNeedsRecheck) << "while B's estimate is held";
  const std::string pod_list = "/api/v1/namespaces/work/pods";
  std::size_t listed = 0;
  for (const auto& request : members_.at("B")->requests()) {
    if (request.target.rfind(pod_list, 0) == 0) {
      ++listed;
      EXPECT_NE(request.target.find("labelSelector=app%3Dweb"), std::string::npos)
          << request.target;
    }
  }
  EXPECT_EQ(listed, 1u);
}

// The replicas of a member whose pods cannot be scheduled, moved to the other member.
class MovedOffUnschedulableTest : public RspReconcilerTest {
 protected:
  // A and B weighted 1:1 over 4; B's two pods unschedulable for two minutes: all four go to A.
  void moveOffB() {
    addCluster("A");
    addCluster("B");
    putWorkload("A", workload(2, 2));
    putWorkload("B", workload(2, 0));
    for (const char* pod : {"b1", "b2"}) {
      putPod("B", pod, unschedulablePod(clock_.wallNow() - std::chrono::minutes(2)));
    }
    putRsp({{"targetKind", "FederatedDeployment"}, {"totalReplicas", 4}});
    putFederated(federatedDeployment());
    EXPECT_EQ(reconcileOk(), ReconcileStatus::kNeedsRecheck) << "B's estimate is held";
    EXPECT_EQ(writtenReplicas(), (std::map<std::string, std::int64_t>{{"A", 4}, {"B", 0}}));
    // The members follow: B runs nothing, A has two new pods still starting.
    type_->federated.add(makeObject(stored()));
    putWorkload("B", workload(0, 0));
    putWorkload("A", workload(4, 2));
    putPod("A", "a1", runningPod());
    putPod("A", "a2", runningPod());
    putPod("A", "a3", {{"phase", "Pending"}});
    putPod("A", "a4", {{"phase", "Pending"}});
  }
};

// Verifies that the pass set off by the move does not plan the replicas back to B while A's new
// pods start: B has no pods left to show it cannot hold them, its estimate is remembered (KubeFed
// forgets it and swings the replicas back, every unschedulable window). Without rebalance the
// replicas stay on A once they run there, after the hold too.
TEST_F(MovedOffUnschedulableTest, ReplicasStayMovedWhileTheyStartAndOnceTheyRun) {
  moveOffB();
  const std::size_t writes = host_.writeCount();
  EXPECT_EQ(reconcileOk(), ReconcileStatus::kNeedsRecheck);
  EXPECT_EQ(writtenReplicas(), (std::map<std::string, std::int64_t>{{"A", 4}, {"B", 0}}));
  EXPECT_EQ(host_.writeCount(), writes);

  putWorkload("A", workload(4, 4));
  clock_.advance(kCapacityHold);
  EXPECT_EQ(reconcileOk(), ReconcileStatus::kOk) << "the estimate lapsed";
  EXPECT_EQ(writtenReplicas(), (std::map<std::string, std::int64_t>{{"A", 4}, {"B", 0}}));
  EXPECT_EQ(host_.writeCount(), writes);
}

// Verifies that the estimate lapses after the hold, not before: B is then planned by weight again
// (had A's new pods still not started, KubeFed's plan again).
TEST_F(MovedOffUnschedulableTest, AfterTheHoldTheClusterIsPlannedAgain) {
  moveOffB();
  clock_.advance(kCapacityHold - std::chrono::seconds(1));
  EXPECT_EQ(reconcileOk(), ReconcileStatus::kNeedsRecheck);
  EXPECT_EQ(writtenReplicas(), (std::map<std::string, std::int64_t>{{"A", 4}, {"B", 0}}));
  clock_.advance(std::chrono::seconds(1));
  EXPECT_EQ(reconcileOk(), ReconcileStatus::kOk);
  EXPECT_EQ(writtenReplicas(), (std::map<std::string, std::int64_t>{{"A", 2}, {"B", 2}}));
}

TEST_F(RspReconcilerTest, RecentlyUnschedulablePodsAskForARecheckAfterWriting) {
  addCluster("A");
  putWorkload("A", workload(2, 1));
  putPod("A", "p1", unschedulablePod(clock_.wallNow() - std::chrono::seconds(10)));
  putRsp({{"targetKind", "FederatedDeployment"}, {"totalReplicas", 2}});
  putFederated(federatedDeployment());
  EXPECT_EQ(reconcileOk(), ReconcileStatus::kNeedsRecheck);
  EXPECT_EQ(writtenReplicas(), (std::map<std::string, std::int64_t>{{"A", 2}}));
}

TEST_F(RspReconcilerTest, WorkloadsAtTheirDesiredReplicasNeedNoPodList) {
  addCluster("A");
  putWorkload("A", workload(3, 3));
  putRsp({{"targetKind", "FederatedDeployment"}, {"totalReplicas", 3}});
  putFederated(federatedDeployment());
  ASSERT_EQ(reconcileOk(), ReconcileStatus::kOk);
  EXPECT_TRUE(members_.at("A")->requests().empty());
}

TEST_F(RspReconcilerTest, IntersectsTheObjectsAndTheNamespacesClusterSelectors) {
  addCluster("east1", {{"region", "east"}, {"tier", "gold"}});
  addCluster("east2", {{"region", "east"}});
  addCluster("west1", {{"region", "west"}, {"tier", "gold"}});
  host_.put(
      kFederatedNamespaces,
      {{"apiVersion", "types.kubefed.io/v1beta1"},
       {"kind", "FederatedNamespace"},
       {"metadata", {{"name", kNs}, {"namespace", kNs}}},
       {"spec", {{"placement", {{"clusterSelector", {{"matchLabels", {{"tier", "gold"}}}}}}}}}});
  putRsp({{"targetKind", "FederatedDeployment"},
          {"totalReplicas", 4},
          {"intersectWithClusterSelector", true}});
  putFederated(federatedDeployment({{"clusterSelector", {{"matchLabels", {{"region", "east"}}}}}}));
  ASSERT_EQ(reconcileOk(), ReconcileStatus::kOk);
  EXPECT_EQ(writtenReplicas(), (std::map<std::string, std::int64_t>{{"east1", 4}}));
}

TEST_F(RspReconcilerTest, IntersectingWithoutAFederatedNamespaceFails) {
  addCluster("A");
  putRsp({{"targetKind", "FederatedDeployment"},
          {"totalReplicas", 4},
          {"intersectWithClusterSelector", true}});
  putFederated(federatedDeployment({{"clusterSelector", Json::object()}}));
  ReconcileResult result = reconcile();
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("FederatedNamespace"), std::string::npos)
      << result.error().message;
  EXPECT_EQ(host_.writeCount(), 0u);
}

TEST_F(RspReconcilerTest, NothingToDoLeavesEverythingAlone) {
  putFederated(federatedDeployment());
  // No RSP.
  addCluster("A");
  EXPECT_EQ(reconcileOk(), ReconcileStatus::kOk);
  // An RSP, but no ready cluster.
  Harness no_clusters;
  no_clusters.addCluster("A", {}, /*ready=*/false);
  no_clusters.putRsp({{"targetKind", "FederatedDeployment"}, {"totalReplicas", 4}});
  no_clusters.putFederated(federatedDeployment());
  EXPECT_EQ(no_clusters.reconcileOk(), ReconcileStatus::kOk);
  EXPECT_EQ(no_clusters.host_.writeCount(), 0u);
  // An RSP, but no federated object.
  Harness no_object;
  no_object.addCluster("A");
  no_object.putRsp({{"targetKind", "FederatedDeployment"}, {"totalReplicas", 4}});
  EXPECT_EQ(no_object.reconcileOk(), ReconcileStatus::kOk);
  // A kind no plugin schedules now (replicasets.apps not enabled).
  Harness no_plugin;
  no_plugin.addCluster("A");
  no_plugin.putRsp({{"targetKind", "FederatedReplicaSet"}, {"totalReplicas", 4}});
  EXPECT_EQ(no_plugin.reconcileOk(), ReconcileStatus::kOk);
  EXPECT_EQ(host_.writeCount(), 0u);
}

TEST_F(RspReconcilerTest, AnUnsupportedTargetKindIsRechecked) {
  addCluster("A");
  putRsp({{"targetKind", "FederatedStatefulSet"}, {"totalReplicas", 4}});
  putFederated(federatedDeployment());
  EXPECT_EQ(reconcileOk(), ReconcileStatus::kNeedsRecheck);
  EXPECT_EQ(host_.writeCount(), 0u);
}

TEST_F(RspReconcilerTest, IncompleteCachesAreNotSynced) {
  addCluster("A");
  putRsp({{"targetKind", "FederatedDeployment"}, {"totalReplicas", 4}});
  putFederated(federatedDeployment());
  type_->synced_ = false;
  EXPECT_EQ(reconcileOk(), ReconcileStatus::kNotSynced);
  EXPECT_EQ(host_.writeCount(), 0u);
}

TEST_F(RspReconcilerTest, InvalidPreferencesAreReportedOnTheRspAndNotRetried) {
  addCluster("A");
  putRsp({{"targetKind", "FederatedDeployment"},
          {"totalReplicas", 4},
          {"clusters", {{"A", {{"weight", -1}}}}}});
  putFederated(federatedDeployment());
  EXPECT_EQ(reconcileOk(), ReconcileStatus::kOk);
  EXPECT_EQ(host_.writeCount(), 0u);
  ASSERT_EQ(events_.reasons(), std::vector<std::string>{"InvalidPreferences"});
  const auto event = events_.events().front();
  EXPECT_EQ(event.type, EventType::kWarning);
  EXPECT_EQ(event.object.kind, "ReplicaSchedulingPreference");
  EXPECT_NE(event.message.find("weight"), std::string::npos) << event.message;
}

}  // namespace
}  // namespace kf::scheduling
