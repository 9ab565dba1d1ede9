#include "controllers/kubefedcluster/kubefedcluster_controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <thread>

#include "tests/support/fake_clock.h"
#include "tests/support/fake_event_recorder.h"
#include "tests/unit/cluster/fake_kubefed_api.h"

namespace kf {
namespace {

using std::chrono::seconds;
using test::FakeClock;
using test::FakeEventRecorder;
using test::FakeKubeFedHost;
using test::FakeMember;

constexpr const char* kNamespace = "kf-system";

// Polls a condition that another thread makes true, with a generous real-time deadline.
bool waitUntil(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + seconds(20);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

Json clusterObject(const std::string& name, const std::string& endpoint = "https://member:6443") {
  return {{"metadata", {{"name", name}}},
          {"spec", {{"apiEndpoint", endpoint}, {"secretRef", {{"name", name + "-secret"}}}}}};
}

std::vector<core::ClusterCondition> conditionsOf(const Json& object) {
  if (!object.contains("status")) return {};
  auto status = core::KubeFedClusterStatus::fromJson(object["status"], meta::FieldPath("status"));
  EXPECT_TRUE(status);
  return status ? status.value().conditions : std::vector<core::ClusterCondition>{};
}

class KubeFedClusterControllerTest : public ::testing::Test {
 protected:
  KubeFedClusterControllerTest() {
    registry_.subscribe([this](const ClusterEvent& event) {
      MutexLock lock(mu_);
      registry_events_.push_back(event);
    });
  }

  std::unique_ptr<KubeFedClusterController> makeController() {
    KubeFedClusterControllerOptions options;
    options.kubefed_namespace = kNamespace;
    options.period = seconds(1);
    options.timeout = seconds(1);
    options.failure_threshold = 2;
    options.success_threshold = 1;
    return std::make_unique<KubeFedClusterController>(
        options, host_.client(), registry_, events_, clock_,
        [this](const core::KubeFedCluster& cluster) { return build(cluster); });
  }

  // The member for a name, made on first use.
  FakeMember& member(const std::string& name) {
    MutexLock lock(mu_);
    auto& slot = members_[name];
    if (!slot) slot = std::make_unique<FakeMember>(clock_);
    return *slot;
  }
  int builds(const std::string& name) {
    MutexLock lock(mu_);
    return builds_[name];
  }
  std::vector<ClusterEvent> registryEvents() {
    MutexLock lock(mu_);
    return registry_events_;
  }
  // Recorded events about one cluster, as "Type/Reason".
  std::vector<std::string> eventsFor(const std::string& name) {
    std::vector<std::string> out;
    for (const auto& event : events_.events()) {
      if (event.object.name != name) continue;
      out.push_back(std::string(event.type == EventType::kNormal ? "Normal/" : "Warning/") +
                    event.reason);
    }
    return out;
  }
  std::optional<ClusterHealth> writtenHealth(const std::string& name) {
    return healthOf(conditionsOf(host_.get(name)));
  }
  ObjectPtr stored(const std::string& name) {
    return std::make_shared<const Json>(host_.get(name));
  }

  FakeClock clock_;
  FakeKubeFedHost host_{kNamespace, clock_};
  ClusterRegistry registry_{clock_};
  FakeEventRecorder events_;

 private:
  Result<MemberClients> build(const core::KubeFedCluster& cluster) {
    {
      MutexLock lock(mu_);
      ++builds_[cluster.name()];
    }
    if (cluster.spec.api_endpoint == "broken") {
      return makeError(Reason::kBadConfig, "spec.apiEndpoint is broken: fix it");
    }
    FakeMember& fake = member(cluster.name());
    return MemberClients{fake.probeClient(), fake.sharedClient()};
  }

  Mutex mu_;
  std::map<std::string, std::unique_ptr<FakeMember>> members_ KF_GUARDED_BY(mu_);
  std::map<std::string, int> builds_ KF_GUARDED_BY(mu_);
  std::vector<ClusterEvent> registry_events_ KF_GUARDED_BY(mu_);
};

// Verifies a round probes a healthy cluster, writes exactly Ready=True with the probe time, and
// records the ClusterReady transition.
TEST_F(KubeFedClusterControllerTest, HealthyClusterBecomesReady) {
  host_.put(clusterObject("a"));
  auto controller = makeController();
  controller->checkClusterHealth();

  const auto conditions = conditionsOf(host_.get("a"));
  ASSERT_EQ(conditions.size(), 1U);
  EXPECT_EQ(conditions[0].type, "Ready");
  EXPECT_EQ(conditions[0].status, "True");
  EXPECT_EQ(conditions[0].reason, "ClusterReady");
  EXPECT_EQ(conditions[0].last_probe_time, formatConditionTime(clock_.wallNow()));
  EXPECT_EQ(eventsFor("a"), std::vector<std::string>{"Normal/ClusterReady"});
}

// Verifies the whole status is replaced by the conditions (zones and region are dropped).
TEST_F(KubeFedClusterControllerTest, StatusIsReplacedWholly) {
  Json object = clusterObject("a");
  object["status"] = {{"conditions", Json::array()}, {"zones", {"z1"}}, {"region", "r1"}};
  host_.put(object);
  makeController()->checkClusterHealth();
  const Json status = host_.get("a")["status"];
  EXPECT_FALSE(status.contains("zones"));
  EXPECT_FALSE(status.contains("region"));
  EXPECT_EQ(status["conditions"].size(), 1U);
}

// Verifies thresholds across rounds (failure 2): one failed probe after Ready keeps Ready, the
// second writes Offline; every failed probe records RetrievingClusterHealthFailed, the change
// records ClusterOffline once, and recovery records ClusterReady.
TEST_F(KubeFedClusterControllerTest, UnreachableClusterGoesOfflineAfterThreshold) {
  host_.put(clusterObject("a"));
  auto controller = makeController();
  controller->checkClusterHealth();
  ASSERT_EQ(writtenHealth("a"), ClusterHealth::kReady);

  member("a").unreachable();
  clock_.advance(seconds(1));
  controller->checkClusterHealth();
  EXPECT_EQ(writtenHealth("a"), ClusterHealth::kReady);
  clock_.advance(seconds(1));
  controller->checkClusterHealth();
  EXPECT_EQ(writtenHealth("a"), ClusterHealth::kOffline);
  const auto offline = conditionsOf(host_.get("a"));
  ASSERT_EQ(offline.size(), 1U);
  EXPECT_EQ(offline[0].reason, "ClusterNotReachable");
  EXPECT_NE(offline[0].message->find("cannot connect"), std::string::npos) << *offline[0].message;

  member("a").healthy();
  clock_.advance(seconds(1));
  controller->checkClusterHealth();
  EXPECT_EQ(writtenHealth("a"), ClusterHealth::kReady);

  EXPECT_EQ(eventsFor("a"), (std::vector<std::string>{
                                "Normal/ClusterReady", "Warning/RetrievingClusterHealthFailed",
                                "Warning/RetrievingClusterHealthFailed", "Warning/ClusterOffline",
                                "Normal/ClusterReady"}));
}

// Verifies a reachable cluster whose /healthz is not "ok" is written NotReady + reachable and
// records ClusterNotReady (no RetrievingClusterHealthFailed: the probe itself worked).
TEST_F(KubeFedClusterControllerTest, UnhealthyClusterIsNotReady) {
  host_.put(clusterObject("a"));
  member("a").unhealthy();
  makeController()->checkClusterHealth();
  const auto conditions = conditionsOf(host_.get("a"));
  ASSERT_EQ(conditions.size(), 2U);
  EXPECT_EQ(conditions[0].reason, "ClusterNotReady");
  EXPECT_EQ(conditions[1].reason, "ClusterReachable");
  EXPECT_EQ(eventsFor("a"), std::vector<std::string>{"Warning/ClusterNotReady"});
}

// Verifies a cluster whose client cannot be built gets MalformedClusterConfig (with the reason)
// and no status, while the other clusters are probed and written.
TEST_F(KubeFedClusterControllerTest, MalformedClusterDoesNotStopOthers) {
  host_.put(clusterObject("bad", "broken"));
  host_.put(clusterObject("down"));
  host_.put(clusterObject("good"));
  member("down").unreachable();
  makeController()->checkClusterHealth();

  EXPECT_FALSE(host_.get("bad").contains("status"));
  const auto bad_events = events_.events();
  const auto malformed = std::find_if(bad_events.begin(), bad_events.end(), [](const auto& e) {
    return e.object.name == "bad" && e.reason == "MalformedClusterConfig";
  });
  ASSERT_NE(malformed, bad_events.end());
  EXPECT_EQ(malformed->type, EventType::kWarning);
  EXPECT_NE(malformed->message.find("spec.apiEndpoint is broken"), std::string::npos);
  EXPECT_EQ(writtenHealth("down"), ClusterHealth::kOffline);
  EXPECT_EQ(writtenHealth("good"), ClusterHealth::kReady);
}

// Verifies probes of different clusters run at the same time: the first cluster's probe only
// returns once the second cluster has been probed.
TEST_F(KubeFedClusterControllerTest, ProbesRunConcurrently) {
  host_.put(clusterObject("a"));
  host_.put(clusterObject("b"));
  FakeMember& b = member("b");
  std::atomic<bool> overlapped{false};
  member("a").onProbe([&] { overlapped = waitUntil([&] { return b.probes() > 0; }); });
  makeController()->checkClusterHealth();
  EXPECT_TRUE(overlapped.load());
  EXPECT_EQ(writtenHealth("a"), ClusterHealth::kReady);
  EXPECT_EQ(writtenHealth("b"), ClusterHealth::kReady);
}

// Verifies the registry follows the informer's objects: a new cluster is added not ready, the
// written Ready status makes it available with the member's shared client, deletion removes it.
TEST_F(KubeFedClusterControllerTest, RegistryFollowsInformer) {
  auto controller = makeController();
  controller->clusterAdded(std::make_shared<const Json>(host_.put(clusterObject("a"))));
  ASSERT_TRUE(registry_.cluster("a"));
  EXPECT_FALSE(registry_.cluster("a")->ready);
  EXPECT_FALSE(registry_.client("a"));

  controller->checkClusterHealth();
  controller->clusterUpdated(stored("a"));
  auto client = registry_.client("a");
  ASSERT_TRUE(client);
  EXPECT_EQ(client.value(), member("a").sharedClient());

  controller->clusterDeleted(stored("a"));
  EXPECT_FALSE(registry_.cluster("a"));

  const auto seen = registryEvents();
  ASSERT_EQ(seen.size(), 3U);
  EXPECT_EQ(seen[0].change, ClusterChange::kAdded);
  EXPECT_FALSE(seen[0].became_available);
  EXPECT_EQ(seen[1].change, ClusterChange::kChanged);
  EXPECT_TRUE(seen[1].became_available);
  EXPECT_EQ(seen[2].change, ClusterChange::kRemoved);
  EXPECT_TRUE(seen[2].became_unavailable);
}

// Verifies a status-only update keeps the client, while a spec change rebuilds it and restarts
// smoothing (the first probe with the new client is used as is).
TEST_F(KubeFedClusterControllerTest, SpecChangeRebuildsClientAndResetsSmoothing) {
  auto controller = makeController();
  controller->clusterAdded(std::make_shared<const Json>(host_.put(clusterObject("a"))));
  controller->checkClusterHealth();
  controller->clusterUpdated(stored("a"));
  EXPECT_EQ(builds("a"), 1);

  Json changed = host_.get("a");
  changed["spec"]["apiEndpoint"] = "https://moved:6443";
  controller->clusterUpdated(std::make_shared<const Json>(host_.put(changed)));
  EXPECT_EQ(builds("a"), 2);

  member("a").unreachable();
  clock_.advance(seconds(1));
  controller->checkClusterHealth();
  EXPECT_EQ(writtenHealth("a"), ClusterHealth::kOffline);  // no threshold: smoothing restarted
}

// Verifies a failed list skips the round without writing anything.
TEST_F(KubeFedClusterControllerTest, FailedListSkipsRound) {
  host_.put(clusterObject("a"));
  host_.failLists(true);
  makeController()->checkClusterHealth();
  EXPECT_EQ(host_.statusWrites(), 0);
  EXPECT_EQ(member("a").probes(), 0);
}

// Verifies start() runs a round at once and one every period on the clock, and stop() joins.
TEST_F(KubeFedClusterControllerTest, StartProbesEveryPeriodUntilStopped) {
  host_.put(clusterObject("a"));
  auto controller = makeController();
  controller->start();
  ASSERT_TRUE(waitUntil([&] { return host_.statusWrites() >= 1; }));
  // The loop arms its period timer after the round; advance until it has fired once.
  ASSERT_TRUE(waitUntil([&] {
    clock_.advance(seconds(1));
    return host_.statusWrites() >= 2;
  }));
  controller->stop();
  const int probes = member("a").probes();
  clock_.advance(seconds(5));
  EXPECT_EQ(member("a").probes(), probes);
  controller->stop();  // idempotent
}

}  // namespace
}  // namespace kf
