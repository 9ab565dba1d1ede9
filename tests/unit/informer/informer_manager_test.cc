#include "federation/informer/informer_manager.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/support/fake_clock.h"
#include "tests/unit/informer/fake_lister_watcher.h"
#include "tests/unit/informer/recording_handler.h"

namespace kf {
namespace {

using test::makeJson;
using test::makeList;
using test::RecordingHandler;
using test::waitUntil;

const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};
const GroupVersionResource kDeployments{"apps", "v1", "deployments", true};

class InformerManagerTest : public ::testing::Test {
 protected:
  // Every ListerWatcher the factory made, in order, each with one object to list.
  std::vector<std::shared_ptr<test::ListWatchScript>> scripts() {
    MutexLock lock(mu_);
    return scripts_;
  }
  std::vector<InformerKey> requested() {
    MutexLock lock(mu_);
    return keys_;
  }

  ListerWatcherPtr makeListerWatcher(const InformerKey& key) {
    auto script = std::make_shared<test::ListWatchScript>();
    script->pushList(makeList("10", {makeJson("ns", key.cluster + "-object", "5")}));
    MutexLock lock(mu_);
    scripts_.push_back(script);
    keys_.push_back(key);
    return std::make_unique<test::FakeListerWatcher>(script);
  }

  test::FakeClock clock_;
  Mutex mu_;
  std::vector<std::shared_ptr<test::ListWatchScript>> scripts_ KF_GUARDED_BY(mu_);
  std::vector<InformerKey> keys_ KF_GUARDED_BY(mu_);
  InformerManager manager_{[this](const InformerKey& key) { return makeListerWatcher(key); },
                           clock_};
};

TEST_F(InformerManagerTest, SameKeySharesOneInformerAndOneListWatch) {
  const InformerKey key{"cluster1", kConfigMaps, "ns", "app=web", ""};
  auto first = manager_.acquire(key);
  auto second = manager_.acquire(key);
  ASSERT_TRUE(first);
  ASSERT_TRUE(second);
  EXPECT_EQ(&first.value().informer(), &second.value().informer());
  EXPECT_EQ(manager_.liveInformerCount(), 1U);
  ASSERT_EQ(scripts().size(), 1U);
  EXPECT_EQ(requested().at(0), key);

  // Started by the first acquire; one list and one watch on the wire for both.
  ASSERT_TRUE(
      first.value()->waitForSync(std::chrono::steady_clock::now() + std::chrono::seconds(5)));
  ASSERT_TRUE(waitUntil([&] { return scripts()[0]->watchCount() == 1; }));
  EXPECT_EQ(scripts()[0]->listCount(), 1U);
  EXPECT_NE(second.value()->store().get("ns/cluster1-object"), nullptr);
}

TEST_F(InformerManagerTest, LastReleaseStopsAndDestroysTheInformer) {
  const InformerKey key{"cluster1", kConfigMaps, "", "", ""};
  auto first = manager_.acquire(key).value();
  auto second = manager_.acquire(key).value();
  ASSERT_TRUE(waitUntil([&] { return scripts()[0]->watchCount() == 1; }));
  auto stream = scripts()[0]->stream(0);

  first.release();
  EXPECT_FALSE(first);
  EXPECT_EQ(manager_.liveInformerCount(), 1U);
  EXPECT_FALSE(stream->stopped());

  second.release();
  EXPECT_EQ(manager_.liveInformerCount(), 0U);
  EXPECT_TRUE(stream->stopped());
  EXPECT_TRUE(scripts()[0]->listerWatcherDestroyed());

  // A new acquire starts from scratch.
  auto again = manager_.acquire(key);
  ASSERT_TRUE(again);
  EXPECT_EQ(scripts().size(), 2U);
  EXPECT_EQ(manager_.liveInformerCount(), 1U);
}

TEST_F(InformerManagerTest, EveryPartOfTheKeyMakesADifferentInformer) {
  const InformerKey base{"cluster1", kConfigMaps, "ns", "app=web", "status=x"};
  std::vector<InformerKey> keys = {base};
  keys.push_back(base);
  keys.back().cluster = "cluster2";
  keys.push_back(base);
  keys.back().resource = kDeployments;
  keys.push_back(base);
  keys.back().namespace_name = "other";
  keys.push_back(base);
  keys.back().label_selector = "app=db";
  keys.push_back(base);
  keys.back().field_selector = "";

  std::vector<InformerLease> leases;
  leases.reserve(keys.size());
  for (const InformerKey& key : keys) {
    leases.push_back(manager_.acquire(key).value());
  }
  EXPECT_EQ(manager_.liveInformerCount(), keys.size());
  EXPECT_EQ(requested(), keys);
  EXPECT_NE(&leases[0].informer(), &leases[4].informer());
}

TEST_F(InformerManagerTest, HandlersAddedThroughALeaseGoWithIt) {
  const InformerKey key{"cluster1", kConfigMaps, "", "", ""};
  auto staying = manager_.acquire(key).value();
  auto leaving = manager_.acquire(key).value();
  auto stays = std::make_shared<RecordingHandler>();
  auto leaves = std::make_shared<RecordingHandler>();
  staying.addEventHandler(stays);
  leaving.addEventHandler(leaves);
  ASSERT_TRUE(stays->waitForCount(1));
  ASSERT_TRUE(leaves->waitForCount(1));
  ASSERT_TRUE(waitUntil([&] { return scripts()[0]->watchCount() == 1; }));

  leaving.release();
  scripts()[0]->stream(0)->send(WatchEventType::kAdded, makeJson("ns", "later", "11"));
  ASSERT_TRUE(stays->waitForCount(2));
  EXPECT_EQ(leaves->count(), 1U);
}

TEST_F(InformerManagerTest, MovedLeaseKeepsTheInformer) {
  const InformerKey key{"cluster1", kConfigMaps, "", "", ""};
  InformerLease moved;
  {
    InformerLease original = manager_.acquire(key).value();
    moved = std::move(original);
  }
  EXPECT_TRUE(moved);
  EXPECT_EQ(moved.key(), key);
  EXPECT_EQ(manager_.liveInformerCount(), 1U);
  InformerLease assigned = manager_.acquire(key).value();
  assigned = std::move(moved);  // releases what `assigned` held: one lease is left
  EXPECT_EQ(manager_.liveInformerCount(), 1U);
  assigned.release();
  EXPECT_EQ(manager_.liveInformerCount(), 0U);
}

TEST_F(InformerManagerTest, StopAllStopsInformersButLeasesStaySafe) {
  const InformerKey key{"cluster1", kConfigMaps, "", "", ""};
  auto lease = manager_.acquire(key).value();
  ASSERT_TRUE(waitUntil([&] { return scripts()[0]->watchCount() == 1; }));
  manager_.stopAll();
  EXPECT_TRUE(scripts()[0]->stream(0)->stopped());
  EXPECT_EQ(manager_.liveInformerCount(), 0U);
  EXPECT_NE(lease->store().get("ns/cluster1-object"), nullptr);  // the cache is still readable

  auto refused = manager_.acquire(key);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().reason, Reason::kCancelled);
  lease.release();
}

TEST_F(InformerManagerTest, LeaseMayOutliveTheManager) {
  InformerLease lease;
  std::shared_ptr<test::ListWatchScript> script;
  {
    InformerManager manager(
        [&](const InformerKey&) {
          script = std::make_shared<test::ListWatchScript>();
          script->pushList(makeList("1", {}));
          return std::make_unique<test::FakeListerWatcher>(script);
        },
        clock_);
    lease = manager.acquire(InformerKey{"c", kConfigMaps, "", "", ""}).value();
    ASSERT_TRUE(waitUntil([&] { return script->watchCount() == 1; }));
  }
  EXPECT_TRUE(script->stream(0)->stopped());  // the manager's destructor stopped it
  lease.release();
  EXPECT_TRUE(script->listerWatcherDestroyed());
}

TEST_F(InformerManagerTest, FactoryWithoutListerWatcherFails) {
  InformerManager manager([](const InformerKey&) { return ListerWatcherPtr(); }, clock_);
  auto lease = manager.acquire(InformerKey{"c", kConfigMaps, "", "", ""});
  ASSERT_FALSE(lease);
  EXPECT_EQ(manager.liveInformerCount(), 0U);
}

TEST_F(InformerManagerTest, ConcurrentAcquiresAndReleases) {
  const InformerKey key{"cluster1", kConfigMaps, "", "", ""};
  std::vector<std::jthread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        auto lease = manager_.acquire(key);
        ASSERT_TRUE(lease);
        (void)lease.value()->hasSynced();
      }
    });
  }
  threads.clear();
  EXPECT_EQ(manager_.liveInformerCount(), 0U);
}

TEST(InformerKeyTest, Describe) {
  EXPECT_EQ(describe(InformerKey{"c1", kDeployments, "ns", "app=x", "a=b"}),
            "c1 apps/v1/deployments ns=ns labels=app=x fields=a=b");
  EXPECT_EQ(describe(InformerKey{"c1", kConfigMaps, "", "", ""}), "c1 v1/configmaps");
}

}  // namespace
}  // namespace kf
