// The KubeFedCluster controller: its reconciler driven key by key (cache filled by the test, host
// and members as fake API servers), and the controller as a whole over an informer.

#include "controllers/kubefedcluster/kubefedcluster_controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"
#include "tests/support/fake_event_recorder.h"

namespace kf {
namespace {

using std::chrono::seconds;
using test::FakeApiServer;
using test::FakeClock;
using test::FakeEventRecorder;

constexpr const char* kNamespace = "kf-system";
const GroupVersionResource kKubeFedClusters{"core.kubefed.io", "v1beta1", "kubefedclusters", true};

// Waits (in real time, generously) for a condition another thread makes true.
bool eventually(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + seconds(30);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

Json clusterObject(const std::string& name, const std::string& endpoint = "https://member:6443") {
  return {{"apiVersion", "core.kubefed.io/v1beta1"},
          {"kind", "KubeFedCluster"},
          {"metadata", {{"name", name}, {"namespace", kNamespace}}},
          {"spec", {{"apiEndpoint", endpoint}, {"secretRef", {{"name", name + "-secret"}}}}}};
}

std::vector<core::ClusterCondition> conditionsOf(const Json& object) {
  if (!object.contains("status")) return {};
  auto status = core::KubeFedClusterStatus::fromJson(object["status"], meta::FieldPath("status"));
  EXPECT_TRUE(status);
  return status ? status.value().conditions : std::vector<core::ClusterCondition>{};
}

// The host and the members as fake API servers, and the client factory the controller uses.
class ClusterFixture {
 public:
  explicit ClusterFixture(Clock& clock) : clock_(clock), host_(clock) {
    host_.enableStatusSubresource("kubefedclusters");
  }

  FakeApiServer& host() { return host_; }
  // The member API server for a name, made on first use.
  FakeApiServer& member(const std::string& name) {
    MutexLock lock(mu_);
    auto& slot = members_[name];
    if (!slot) slot = std::make_unique<FakeApiServer>(clock_);
    return *slot;
  }
  int builds(const std::string& name) {
    MutexLock lock(mu_);
    return builds_[name];
  }
  MemberClientFactory factory() {
    return [this](const core::KubeFedCluster& cluster) -> Result<MemberClients> {
      {
        MutexLock lock(mu_);
        ++builds_[cluster.name()];
      }
      if (cluster.spec.api_endpoint == "broken") {
        return makeError(Reason::kBadConfig, "spec.apiEndpoint is broken: fix it");
      }
      FakeApiServer& fake = member(cluster.name());
      return MemberClients{fake.client(), fake.client({.max_attempts = 3})};
    };
  }
  Json put(const Json& cluster) { return host_.put(kKubeFedClusters, cluster); }
  Json stored(const std::string& name) {
    return host_.get(kKubeFedClusters, kNamespace, name).value_or(Json());
  }
  std::optional<ClusterHealth> writtenHealth(const std::string& name) {
    return healthOf(conditionsOf(stored(name)));
  }

 private:
  Clock& clock_;
  FakeApiServer host_;
  Mutex mu_;
  std::map<std::string, std::unique_ptr<FakeApiServer>> members_ KF_GUARDED_BY(mu_);
  std::map<std::string, int> builds_ KF_GUARDED_BY(mu_);
};

class KubeFedClusterReconcilerTest : public ::testing::Test {
 protected:
  KubeFedClusterReconcilerTest() {
    registry_.subscribe([this](const ClusterEvent& event) {
      MutexLock lock(mu_);
      registry_events_.push_back(event);
    });
  }

  // Puts the cluster on the host and in the cache, as the informer would.
  void add(const Json& cluster) { cache_.add(makeObject(fixture_.put(cluster))); }
  // The cache catches up with the host.
  void refresh(const std::string& name) { cache_.add(makeObject(fixture_.stored(name))); }
  // One reconcile of the cluster, then the cache catches up with what it wrote.
  void probe(const std::string& name) {
    auto result = reconciler_.reconcile(std::string(kNamespace) + "/" + name);
    ASSERT_TRUE(result);
    EXPECT_EQ(result.value(), ReconcileStatus::requeueAfter(seconds(1)))
        << "probed again after the period";
    refresh(name);
  }
  std::vector<std::string> eventsFor(const std::string& name) {
    std::vector<std::string> out;
    for (const auto& event : events_.events()) {
      if (event.object.name != name) continue;
      out.push_back(std::string(event.type == EventType::kNormal ? "Normal/" : "Warning/") +
                    event.reason);
    }
    return out;
  }
  std::vector<ClusterEvent> registryEvents() {
    MutexLock lock(mu_);
    return registry_events_;
  }

  FakeClock clock_;
  ClusterFixture fixture_{clock_};
  Store cache_;
  ClusterRegistry registry_{clock_};
  FakeEventRecorder events_;
  std::shared_ptr<RestClient> host_client_ = fixture_.host().client();
  KubeFedClusterReconciler reconciler_{
      KubeFedClusterControllerOptions{.kubefed_namespace = kNamespace,
                                      .period = seconds(1),
                                      .timeout = seconds(1),
                                      .failure_threshold = 2,
                                      .success_threshold = 1},
      KubeFedClusterDeps{cache_, *host_client_, registry_, events_, clock_, fixture_.factory()}};

 private:
  Mutex mu_;
  std::vector<ClusterEvent> registry_events_ KF_GUARDED_BY(mu_);
};

// Verifies a probe of a healthy cluster writes exactly Ready=True with the probe time, records
// the ClusterReady transition, and asks to be probed again after the period.
TEST_F(KubeFedClusterReconcilerTest, HealthyClusterBecomesReady) {
  add(clusterObject("a"));
  probe("a");
  const auto conditions = conditionsOf(fixture_.stored("a"));
  ASSERT_EQ(conditions.size(), 1U);
  EXPECT_EQ(conditions[0].type, "Ready");
  EXPECT_EQ(conditions[0].status, "True");
  EXPECT_EQ(conditions[0].reason, "ClusterReady");
  EXPECT_EQ(conditions[0].last_probe_time, formatConditionTime(clock_.wallNow()));
  EXPECT_EQ(eventsFor("a"), std::vector<std::string>{"Normal/ClusterReady"});
}

// Verifies the whole status is replaced by the conditions (zones and region are dropped).
TEST_F(KubeFedClusterReconcilerTest, StatusIsReplacedWholly) {
  Json object = clusterObject("a");
  object["status"] = {{"conditions", Json::array()}, {"zones", {"z1"}}, {"region", "r1"}};
  add(object);
  probe("a");
  const Json status = fixture_.stored("a")["status"];
  EXPECT_FALSE(status.contains("zones"));
  EXPECT_FALSE(status.contains("region"));
  EXPECT_EQ(status["conditions"].size(), 1U);
}

// Verifies the status is written only when it changed: a second probe within the same second
// (same probe time, same result) writes nothing; one a second later moves lastProbeTime.
TEST_F(KubeFedClusterReconcilerTest, StatusIsWrittenOnlyWhenItChanged) {
  add(clusterObject("a"));
  probe("a");
  const std::size_t writes = fixture_.host().writeCount();
  ASSERT_EQ(writes, 1U);
  probe("a");
  EXPECT_EQ(fixture_.host().writeCount(), writes);
  clock_.advance(seconds(1));
  probe("a");
  EXPECT_EQ(fixture_.host().writeCount(), writes + 1);
}

// Verifies thresholds across probes (failure 2): one failed probe after Ready keeps Ready, the
// second writes Offline with KubeFed's message; every failed probe records
// RetrievingClusterHealthFailed, the change records ClusterOffline once (saying why), and recovery
// records ClusterReady.
TEST_F(KubeFedClusterReconcilerTest, UnreachableClusterGoesOfflineAfterThreshold) {
  add(clusterObject("a"));
  probe("a");
  ASSERT_EQ(fixture_.writtenHealth("a"), ClusterHealth::kReady);

  fixture_.member("a").setUnreachable(true);
  clock_.advance(seconds(1));
  probe("a");
  EXPECT_EQ(fixture_.writtenHealth("a"), ClusterHealth::kReady);
  clock_.advance(seconds(1));
  probe("a");
  EXPECT_EQ(fixture_.writtenHealth("a"), ClusterHealth::kOffline);
  const auto offline = conditionsOf(fixture_.stored("a"));
  ASSERT_EQ(offline.size(), 1U);
  EXPECT_EQ(offline[0].reason, "ClusterNotReachable");
  EXPECT_EQ(offline[0].message, "cluster is not reachable");  // KubeFed's; why is in the event
  const auto events = events_.events();
  const auto offline_event = std::find_if(
      events.begin(), events.end(), [](const auto& e) { return e.reason == "ClusterOffline"; });
  ASSERT_NE(offline_event, events.end());
  EXPECT_NE(offline_event->message.find("cluster is not reachable: cannot connect"),
            std::string::npos)
      << offline_event->message;

  fixture_.member("a").setUnreachable(false);
  clock_.advance(seconds(1));
  probe("a");
  EXPECT_EQ(fixture_.writtenHealth("a"), ClusterHealth::kReady);

  EXPECT_EQ(eventsFor("a"), (std::vector<std::string>{
                                "Normal/ClusterReady", "Warning/RetrievingClusterHealthFailed",
                                "Warning/RetrievingClusterHealthFailed", "Warning/ClusterOffline",
                                "Normal/ClusterReady"}));
}

// Verifies a reachable cluster whose /healthz is not "ok" is written NotReady + reachable and
// records ClusterNotReady (no RetrievingClusterHealthFailed: the probe itself worked).
TEST_F(KubeFedClusterReconcilerTest, UnhealthyClusterIsNotReady) {
  add(clusterObject("a"));
  fixture_.member("a").setHealthz(200, "[-]etcd failed");
  probe("a");
  const auto conditions = conditionsOf(fixture_.stored("a"));
  ASSERT_EQ(conditions.size(), 2U);
  EXPECT_EQ(conditions[0].reason, "ClusterNotReady");
  EXPECT_EQ(conditions[1].reason, "ClusterReachable");
  EXPECT_EQ(eventsFor("a"), std::vector<std::string>{"Warning/ClusterNotReady"});
}

// Verifies a cluster whose client cannot be built gets MalformedClusterConfig (with the reason),
// no status, a registry entry without a client, and another try after the period.
TEST_F(KubeFedClusterReconcilerTest, MalformedClusterIsReportedAndTriedAgain) {
  add(clusterObject("bad", "broken"));
  probe("bad");
  probe("bad");
  EXPECT_FALSE(fixture_.stored("bad").contains("status"));
  EXPECT_EQ(eventsFor("bad"), (std::vector<std::string>{"Warning/MalformedClusterConfig",
                                                        "Warning/MalformedClusterConfig"}));
  const auto events = events_.events();
  EXPECT_NE(events.front().message.find("spec.apiEndpoint is broken"), std::string::npos);
  EXPECT_EQ(fixture_.builds("bad"), 2);
  ASSERT_TRUE(registry_.cluster("bad"));
  EXPECT_FALSE(registry_.client("bad"));
}

// Verifies the registry follows: a new cluster is added not ready, the written Ready status makes
// it available with the member's shared client, a cluster gone from the cache is removed.
TEST_F(KubeFedClusterReconcilerTest, RegistryFollowsTheClusters) {
  add(clusterObject("a"));
  probe("a");
  ASSERT_TRUE(registry_.cluster("a"));
  EXPECT_TRUE(registry_.cluster("a")->ready);
  ASSERT_TRUE(registry_.client("a"));

  cache_.remove(std::string(kNamespace) + "/a");
  auto forgotten = reconciler_.reconcile(std::string(kNamespace) + "/a");
  ASSERT_TRUE(forgotten);
  EXPECT_EQ(forgotten.value(), ReconcileStatus::kOk);
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

// Verifies a status-only change keeps the client, while a spec change rebuilds it and restarts
// smoothing (the first probe with the new client is used as is).
TEST_F(KubeFedClusterReconcilerTest, SpecChangeRebuildsClientAndResetsSmoothing) {
  add(clusterObject("a"));
  probe("a");
  probe("a");
  EXPECT_EQ(fixture_.builds("a"), 1);

  Json changed = fixture_.stored("a");
  changed["spec"]["apiEndpoint"] = "https://moved:6443";
  add(changed);
  fixture_.member("a").setUnreachable(true);
  clock_.advance(seconds(1));
  probe("a");
  EXPECT_EQ(fixture_.builds("a"), 2);
  EXPECT_EQ(fixture_.writtenHealth("a"), ClusterHealth::kOffline);  // no threshold: restarted
}

// Verifies a write against a stale cache (the previous write not seen yet) is retried once on the
// stored object instead of failing with a Conflict.
TEST_F(KubeFedClusterReconcilerTest, StaleCacheConflictIsRetriedOnTheStoredObject) {
  add(clusterObject("a"));
  ASSERT_TRUE(reconciler_.reconcile(std::string(kNamespace) + "/a"));  // the cache is not refreshed
  fixture_.member("a").setHealthz(200, "[-]etcd failed");
  clock_.advance(seconds(1));
  ASSERT_TRUE(reconciler_.reconcile(std::string(kNamespace) + "/a"));
  clock_.advance(seconds(1));
  ASSERT_TRUE(reconciler_.reconcile(std::string(kNamespace) + "/a"));
  EXPECT_EQ(fixture_.writtenHealth("a"), ClusterHealth::kNotReady);
}

// The controller over an informer on the fake host, with the real workers.
class KubeFedClusterControllerTest : public ::testing::Test {
 protected:
  std::unique_ptr<KubeFedClusterController> makeController(int workers = 4) {
    return std::make_unique<KubeFedClusterController>(
        KubeFedClusterControllerOptions{.kubefed_namespace = kNamespace,
                                        .period = seconds(10),
                                        .timeout = seconds(1),
                                        .failure_threshold = 2,
                                        .success_threshold = 1,
                                        .workers = workers},
        *host_client_, registry_, events_, clock_, fixture_.factory());
  }

  FakeClock clock_;
  ClusterFixture fixture_{clock_};
  ClusterRegistry registry_{clock_};
  FakeEventRecorder events_;
  std::shared_ptr<RestClient> host_client_ = fixture_.host().client();
};

// Verifies a cluster is probed at once on start, again one period after its probe (not sooner,
// even though its own status write updates it), and not after stop().
TEST_F(KubeFedClusterControllerTest, ProbesEachClusterEveryPeriodUntilStopped) {
  fixture_.put(clusterObject("a"));
  auto controller = makeController();
  ASSERT_TRUE(controller->start());
  ASSERT_TRUE(eventually([&] { return fixture_.writtenHealth("a") == ClusterHealth::kReady; }));
  // The requeue after the period is armed once the reconcile has returned.
  ASSERT_TRUE(eventually([&] { return clock_.pendingTimers() > 0; }));
  EXPECT_EQ(fixture_.member("a").requestsTo("/healthz"), 1U);

  clock_.advance(seconds(9));
  EXPECT_EQ(fixture_.member("a").requestsTo("/healthz"), 1U);
  clock_.advance(seconds(1));
  ASSERT_TRUE(eventually([&] { return fixture_.member("a").requestsTo("/healthz") == 2; }));

  controller->stop();
  clock_.advance(seconds(30));
  EXPECT_EQ(fixture_.member("a").requestsTo("/healthz"), 2U);
  controller->stop();  // idempotent
}

// Verifies probes of different clusters run at the same time on the workers: the first cluster's
// probe only returns once the second cluster has been probed.
TEST_F(KubeFedClusterControllerTest, ProbesRunConcurrently) {
  fixture_.put(clusterObject("a"));
  fixture_.put(clusterObject("b"));
  FakeApiServer& b = fixture_.member("b");
  std::atomic<bool> overlapped{false};
  fixture_.member("a").onRequest([&](const HttpRequest&) {
    overlapped = eventually([&] { return b.requestsTo("/healthz") > 0; });
  });
  auto controller = makeController(/*workers=*/2);
  ASSERT_TRUE(controller->start());
  ASSERT_TRUE(eventually([&] {
    return fixture_.writtenHealth("a") == ClusterHealth::kReady &&
           fixture_.writtenHealth("b") == ClusterHealth::kReady;
  }));
  controller->stop();
  EXPECT_TRUE(overlapped.load());
}

// Verifies a spec change seen by the informer rebuilds the client and probes at once, without
// waiting for the period.
TEST_F(KubeFedClusterControllerTest, SpecChangeIsProbedAtOnce) {
  fixture_.put(clusterObject("a"));
  auto controller = makeController();
  ASSERT_TRUE(controller->start());
  ASSERT_TRUE(eventually([&] { return fixture_.writtenHealth("a") == ClusterHealth::kReady; }));
  Json changed = fixture_.stored("a");
  changed["spec"]["apiEndpoint"] = "https://moved:6443";
  fixture_.put(changed);
  ASSERT_TRUE(eventually([&] { return fixture_.builds("a") == 2; }));
  ASSERT_TRUE(eventually([&] { return fixture_.member("a").requestsTo("/healthz") == 2; }));
  controller->stop();
}

// Verifies the registry is synced only once the informer has listed and each cluster it listed
// has been reconciled: a cluster whose first reconcile is still probing keeps it unsynced.
TEST_F(KubeFedClusterControllerTest, TheRegistryIsSyncedOnceEachListedClusterWasReconciled) {
  fixture_.put(clusterObject("a"));
  fixture_.put(clusterObject("b"));
  std::atomic<bool> release_b{false};
  fixture_.member("b").onRequest(
      [&](const HttpRequest&) { (void)eventually([&] { return release_b.load(); }); });
  auto controller = makeController(/*workers=*/2);
  EXPECT_FALSE(registry_.synced()) << "nothing listed yet";
  ASSERT_TRUE(controller->start());
  ASSERT_TRUE(eventually([&] { return fixture_.writtenHealth("a") == ClusterHealth::kReady; }));
  ASSERT_TRUE(eventually([&] { return fixture_.member("b").requestsTo("/healthz") == 1; }));
  EXPECT_TRUE(registry_.cluster("b")) << "published before its probe";
  EXPECT_FALSE(registry_.synced()) << "b's first reconcile is not over";
  release_b = true;
  EXPECT_TRUE(eventually([&] { return registry_.synced(); }));
  controller->stop();
}

}  // namespace
}  // namespace kf
