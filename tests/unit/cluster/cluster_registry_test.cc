#include "federation/cluster/cluster_registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using test::FakeApiServer;
using test::FakeClock;

ClusterSnapshot snapshot(const std::string& name, bool ready, Json spec = {{"apiEndpoint", "a"}},
                         std::map<std::string, std::string> labels = {},
                         Json annotations = nullptr) {
  Json object = {{"metadata", {{"name", name}}}, {"spec", std::move(spec)}};
  if (!labels.empty()) object["metadata"]["labels"] = labels;
  if (!annotations.is_null()) object["metadata"]["annotations"] = std::move(annotations);
  object["status"] = {{"lastProbe", "t0"}};
  return ClusterSnapshot{name, ready, std::move(labels), std::make_shared<const Json>(object)};
}

class ClusterRegistryTest : public ::testing::Test {
 protected:
  ClusterRegistryTest() { server_.setUnreachable(true); }

  // A client the registry hands out; its server refuses every connection.
  std::shared_ptr<RestClient> makeClient() { return server_.client(RetryPolicy{}); }

  // Subscribes a listener that records every event.
  ListenerId record() {
    return registry_.subscribe([this](const ClusterEvent& event) {
      MutexLock lock(mu_);
      events_.push_back(event);
    });
  }
  std::vector<ClusterEvent> events() {
    MutexLock lock(mu_);
    return events_;
  }

  FakeClock clock_;
  FakeApiServer server_{clock_};  // outlives the registry and the clients it holds
  ClusterRegistry registry_{clock_};
  Mutex mu_;
  std::vector<ClusterEvent> events_ KF_GUARDED_BY(mu_);
};

// Verifies a new cluster is announced as added, and as available only when ready.
TEST_F(ClusterRegistryTest, NewClusterIsAdded) {
  record();
  registry_.upsert(snapshot("a", true), makeClient());
  registry_.upsert(snapshot("b", false), nullptr);
  const auto seen = events();
  ASSERT_EQ(seen.size(), 2U);
  EXPECT_EQ(seen[0].change, ClusterChange::kAdded);
  EXPECT_EQ(seen[0].cluster.name, "a");
  EXPECT_TRUE(seen[0].became_available);
  EXPECT_FALSE(seen[0].became_unavailable);
  EXPECT_EQ(seen[1].change, ClusterChange::kAdded);
  EXPECT_FALSE(seen[1].became_available);
}

// Verifies an upsert that changes nothing listeners care about (only the status moved) is
// silent, but still stores the new object.
TEST_F(ClusterRegistryTest, StatusOnlyChangeIsSilent) {
  auto client = makeClient();
  registry_.upsert(snapshot("a", true), client);
  record();
  auto next = snapshot("a", true);
  Json object = *next.object;
  object["status"] = {{"lastProbe", "t1"}};
  next.object = std::make_shared<const Json>(object);
  registry_.upsert(next, client);
  EXPECT_TRUE(events().empty());
  EXPECT_EQ((*registry_.cluster("a")->object)["status"]["lastProbe"], "t1");
}

// Verifies readiness changes are announced with the matching availability flag.
TEST_F(ClusterRegistryTest, ReadinessChangesAreAnnounced) {
  auto client = makeClient();
  registry_.upsert(snapshot("a", false), client);
  record();
  registry_.upsert(snapshot("a", true), client);
  registry_.upsert(snapshot("a", false), client);
  const auto seen = events();
  ASSERT_EQ(seen.size(), 2U);
  EXPECT_EQ(seen[0].change, ClusterChange::kChanged);
  EXPECT_TRUE(seen[0].became_available);
  EXPECT_FALSE(seen[0].became_unavailable);
  EXPECT_EQ(seen[1].change, ClusterChange::kChanged);
  EXPECT_FALSE(seen[1].became_available);
  EXPECT_TRUE(seen[1].became_unavailable);
}

// Verifies spec, label, annotation and client changes are each announced as kChanged, without
// availability flags when readiness stays.
TEST_F(ClusterRegistryTest, SpecLabelAnnotationAndClientChangesAreAnnounced) {
  auto client = makeClient();
  registry_.upsert(snapshot("a", true), client);
  record();
  registry_.upsert(snapshot("a", true, {{"apiEndpoint", "b"}}), client);
  registry_.upsert(snapshot("a", true, {{"apiEndpoint", "b"}}, {{"region", "eu"}}), client);
  registry_.upsert(snapshot("a", true, {{"apiEndpoint", "b"}}, {{"region", "eu"}}, {{"x", "y"}}),
                   client);
  registry_.upsert(snapshot("a", true, {{"apiEndpoint", "b"}}, {{"region", "eu"}}, {{"x", "y"}}),
                   makeClient());
  const auto seen = events();
  ASSERT_EQ(seen.size(), 4U);
  for (const auto& event : seen) {
    EXPECT_EQ(event.change, ClusterChange::kChanged);
    EXPECT_FALSE(event.became_available);
    EXPECT_FALSE(event.became_unavailable);
  }
  EXPECT_EQ(seen[1].cluster.labels.at("region"), "eu");
}

// Verifies an empty annotation map and no annotations are the same thing.
TEST_F(ClusterRegistryTest, EmptyAndMissingAnnotationsAreEqual) {
  auto client = makeClient();
  registry_.upsert(snapshot("a", true), client);
  record();
  registry_.upsert(snapshot("a", true, {{"apiEndpoint", "a"}}, {}, Json::object()), client);
  EXPECT_TRUE(events().empty());
}

// Verifies removal announces the last state, unavailable if it was ready; unknown names are
// ignored.
TEST_F(ClusterRegistryTest, RemoveAnnouncesLastState) {
  registry_.upsert(snapshot("a", true), makeClient());
  record();
  registry_.remove("a");
  registry_.remove("never-known");
  const auto seen = events();
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0].change, ClusterChange::kRemoved);
  EXPECT_EQ(seen[0].cluster.name, "a");
  EXPECT_TRUE(seen[0].cluster.ready);
  EXPECT_TRUE(seen[0].became_unavailable);
  EXPECT_FALSE(registry_.cluster("a"));
}

// Verifies the client is handed out only for ready clusters, with KubeFed's NotFound otherwise.
TEST_F(ClusterRegistryTest, ClientOnlyForReadyClusters) {
  auto client = makeClient();
  registry_.upsert(snapshot("ready", true), client);
  registry_.upsert(snapshot("unready", false), makeClient());
  registry_.upsert(snapshot("no-client", true), nullptr);

  auto found = registry_.client("ready");
  ASSERT_TRUE(found);
  EXPECT_EQ(found.value(), client);
  for (const std::string name : {"unready", "no-client", "unknown"}) {
    auto missing = registry_.client(name);
    ASSERT_FALSE(missing) << name;
    EXPECT_TRUE(isNotFound(missing.error()));
    EXPECT_EQ(missing.error().message, "cluster \"" + name + "\" not found");
  }
}

// Verifies clusters() lists every cluster sorted by name, ready or not.
TEST_F(ClusterRegistryTest, ClustersAreSortedByName) {
  registry_.upsert(snapshot("c", true), nullptr);
  registry_.upsert(snapshot("a", false), nullptr);
  registry_.upsert(snapshot("b", true), nullptr);
  const auto all = registry_.clusters();
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[0].name, "a");
  EXPECT_EQ(all[1].name, "b");
  EXPECT_EQ(all[2].name, "c");
}

// Verifies an unsubscribed listener is not called again, and others still are.
TEST_F(ClusterRegistryTest, UnsubscribedListenerIsNotCalled) {
  std::atomic<int> calls{0};
  const ListenerId id = registry_.subscribe([&](const ClusterEvent&) { ++calls; });
  record();
  registry_.upsert(snapshot("a", true), nullptr);
  registry_.unsubscribe(id);
  registry_.upsert(snapshot("b", true), nullptr);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(events().size(), 2U);
}

// Verifies a listener may unsubscribe itself, and read the registry, from inside a call.
TEST_F(ClusterRegistryTest, ListenerMayUnsubscribeItselfAndRead) {
  std::atomic<int> calls{0};
  std::atomic<std::size_t> seen_clusters{0};
  ListenerId id = 0;
  id = registry_.subscribe([&](const ClusterEvent&) {
    ++calls;
    seen_clusters = registry_.clusters().size();
    registry_.unsubscribe(id);
  });
  registry_.upsert(snapshot("a", true), nullptr);
  registry_.upsert(snapshot("b", true), nullptr);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(seen_clusters.load(), 1U);
}

// Verifies a listener unsubscribed by another listener of the same change is not called after
// unsubscribe() returned.
TEST_F(ClusterRegistryTest, ListenerUnsubscribedByAnotherIsSkipped) {
  std::atomic<int> second_calls{0};
  ListenerId second = 0;
  registry_.subscribe([&](const ClusterEvent&) { registry_.unsubscribe(second); });
  second = registry_.subscribe([&](const ClusterEvent&) { ++second_calls; });
  registry_.upsert(snapshot("a", true), nullptr);
  EXPECT_EQ(second_calls.load(), 0);
}

// Verifies unsubscribe() from another thread waits for a call in progress to return.
TEST_F(ClusterRegistryTest, UnsubscribeWaitsForRunningListener) {
  std::promise<void> entered;
  std::promise<void> release;
  std::atomic<bool> running{false};
  const ListenerId id = registry_.subscribe([&](const ClusterEvent&) {
    running = true;
    entered.set_value();
    release.get_future().wait();
    running = false;
  });
  std::thread writer([&] { registry_.upsert(snapshot("a", true), nullptr); });
  entered.get_future().wait();
  auto unsubscribed = std::async(std::launch::async, [&] {
    registry_.unsubscribe(id);
    return running.load();
  });
  // The unsubscribe cannot finish while the listener is held inside its call.
  EXPECT_EQ(unsubscribed.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  release.set_value();
  EXPECT_FALSE(unsubscribed.get());
  writer.join();
}

// Verifies listeners see the changes of concurrent writers in the order the registry applied
// them: for every cluster, events arrive in the order of that cluster's writes.
TEST_F(ClusterRegistryTest, ConcurrentWritersNotifyInOrder) {
  record();
  constexpr int kFlips = 200;
  auto writer = [this](const std::string& name) {
    for (int i = 0; i < kFlips; ++i) registry_.upsert(snapshot(name, i % 2 == 1), nullptr);
    registry_.remove(name);
  };
  std::thread a(writer, "a");
  std::thread b(writer, "b");
  a.join();
  b.join();
  for (const std::string name : {"a", "b"}) {
    std::vector<ClusterEvent> mine;
    for (const auto& event : events()) {
      if (event.cluster.name == name) mine.push_back(event);
    }
    ASSERT_EQ(mine.size(), static_cast<std::size_t>(kFlips + 1)) << name;
    EXPECT_EQ(mine.front().change, ClusterChange::kAdded);
    for (int i = 1; i < kFlips; ++i) {
      EXPECT_EQ(mine[i].cluster.ready, i % 2 == 1) << name << " event " << i;
    }
    EXPECT_EQ(mine.back().change, ClusterChange::kRemoved);
  }
}

// Verifies the registry is synced without a writer's check, follows the check until it first
// holds, stays synced after (clusters added later are ordinary changes), and is synced again
// once the check is withdrawn.
TEST_F(ClusterRegistryTest, SyncedFollowsTheWritersCheckUntilItFirstHolds) {
  EXPECT_TRUE(registry_.synced());
  bool complete = false;
  int asked = 0;
  registry_.setSyncedCheck([&] {
    ++asked;
    return complete;
  });
  EXPECT_FALSE(registry_.synced());
  EXPECT_FALSE(registry_.synced());
  complete = true;
  EXPECT_TRUE(registry_.synced());
  complete = false;
  EXPECT_TRUE(registry_.synced());
  EXPECT_EQ(asked, 3);
  registry_.setSyncedCheck({});
  EXPECT_TRUE(registry_.synced());
}

}  // namespace
}  // namespace kf
