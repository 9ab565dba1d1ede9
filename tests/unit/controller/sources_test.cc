// The controller runtime's sources and handlers (source.h, handler.h): which keys each event
// queues, after which delay, and that a stopped source queues nothing more. On fakes (a scripted
// lister/watcher, the fake API server) and a fake clock.

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <string>
#include <utility>
#include <vector>

#include "federation/controller/cluster_availability_source.h"
#include "federation/controller/handler.h"
#include "federation/controller/informer_source.h"
#include "federation/controller/member_informers.h"
#include "federation/runtime/task_pool.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"
#include "tests/unit/informer/fake_lister_watcher.h"

namespace kf {
namespace {

using std::chrono::seconds;
using Queued = std::pair<std::string, Duration>;

// Records every key queued into it, with the delay it was queued after, and which came as a
// backlog.
class RecordingTarget final : public EnqueueTarget {
 public:
  void enqueueAfter(const std::string& key, Duration delay) override {
    {
      MutexLock lock(mu_);
      queued_.emplace_back(key, delay);
    }
    cv_.notify_all();
  }
  void enqueueBacklogAfter(const std::string& key, Duration delay) override {
    {
      MutexLock lock(mu_);
      backlog_.push_back(key);
    }
    enqueueAfter(key, delay);
  }
  // The keys queued as a backlog, in order.
  std::vector<std::string> backlog() const {
    MutexLock lock(mu_);
    return backlog_;
  }
  std::vector<Queued> queued() const {
    MutexLock lock(mu_);
    return queued_;
  }
  std::size_t count(const std::string& key) const {
    MutexLock lock(mu_);
    std::size_t n = 0;
    for (const auto& [queued_key, delay] : queued_) n += queued_key == key ? 1 : 0;
    return n;
  }
  // True once `key` was queued `n` times.
  bool waitFor(const std::string& key, std::size_t n = 1) const {
    return test::waitUntil([&] { return count(key) >= n; }, seconds(30));
  }

 private:
  mutable Mutex mu_;
  std::condition_variable cv_;
  std::vector<Queued> queued_ KF_GUARDED_BY(mu_);
  std::vector<std::string> backlog_ KF_GUARDED_BY(mu_);
};

Json sourceObject(const std::string& ns, const std::string& name, int version = 1) {
  return {{"metadata",
           {{"namespace", ns}, {"name", name}, {"resourceVersion", std::to_string(version)}}},
          {"spec", {{"version", version}}}};
}

ObjectList sourceListOf(std::vector<Json> items) {
  ObjectList list;
  list.resource_version = "1";
  list.items = std::move(items);
  return list;
}

// Verifies the handlers: the object's own key or the keys a map names, every key a function
// lists, each with the handler's delay; an event about no object queues only what lists all.
TEST(HandlerTest, EachHandlerQueuesItsKeysAfterItsDelay) {
  RecordingTarget target;
  const Json a = sourceObject("kf", "a");
  enqueueObject(seconds(3)).deliver(&a, target);
  enqueueMapped([](const Json&) { return std::vector<std::string>{"x", "y"}; }).deliver(&a, target);
  enqueueMapped(keyOfObject).deliver(nullptr, target);
  enqueueAll(
      [] {
        return std::vector<std::string>{"p", "q"};
      },
      seconds(5))
      .deliver(nullptr, target);
  EXPECT_EQ(target.queued(), (std::vector<Queued>{{"kf/a", seconds(3)},
                                                  {"x", seconds(0)},
                                                  {"y", seconds(0)},
                                                  {"p", seconds(5)},
                                                  {"q", seconds(5)}}));
  const Handler filtered =
      enqueueObject().updatesWhen([](const Json&, const Json&) { return false; });
  EXPECT_FALSE(filtered.update_filter(a, sourceObject("kf", "a", 2)));
  EXPECT_TRUE(enqueueObject().update_filter(a, sourceObject("kf", "a", 2)));  // KubeFed's rule
}

// Verifies that an event delivered as a backlog queues its keys as a backlog, after the
// handler's delay, and a normal one as normal keys.
TEST(HandlerTest, ABacklogEventQueuesBacklogKeys) {
  RecordingTarget target;
  const Json a = sourceObject("kf", "a");
  const Json b = sourceObject("kf", "b");
  enqueueObject(seconds(2)).deliver(&a, target, Priority::kBacklog);
  enqueueObject(seconds(2)).deliver(&b, target, Priority::kNormal);
  EXPECT_EQ(target.backlog(), std::vector<std::string>{"kf/a"});
  EXPECT_EQ(target.queued(), (std::vector<Queued>{{"kf/a", seconds(2)}, {"kf/b", seconds(2)}}));
}

// Verifies that a handler delayed by a function queues each key after that key's delay.
TEST(HandlerTest, APerKeyDelayReplacesTheHandlersDelay) {
  RecordingTarget target;
  const Json a = sourceObject("kf", "a");
  const Json b = sourceObject("kf", "b");
  const Handler handler = enqueueObject(seconds(10)).delayedBy([](const std::string& key) {
    return key == "kf/a" ? Duration::zero() : Duration(seconds(10));
  });
  handler.deliver(&a, target);
  handler.deliver(&b, target);
  EXPECT_EQ(target.queued(), (std::vector<Queued>{{"kf/a", seconds(0)}, {"kf/b", seconds(10)}}));
}

// Whether `informer` has handed every event it had before to its handlers: a handler added now
// is called (with the cache's replay) after the ones those events were handed to, as long as
// the informer's dispatch pool has one thread, which runs its jobs in order.
bool delivered(SharedInformer& informer) {
  std::atomic<bool> replayed{false};
  auto probe = std::make_shared<EventHandlerFuncs>();
  probe->on_add = [&replayed](const ObjectPtr&, bool) { replayed = true; };
  const HandlerId id = informer.addEventHandler(probe);
  const bool done = test::waitUntil([&] { return replayed.load(); }, seconds(30));
  informer.removeEventHandler(id);
  return done;
}

class InformerSourceTest : public ::testing::Test {
 protected:
  test::FakeClock clock_;
  TaskPool dispatch_{1, "dispatch"};
  RecordingTarget target_;
  std::shared_ptr<test::ListWatchScript> script_ = std::make_shared<test::ListWatchScript>();
};

// Verifies a borrowed informer's events queue what the handler maps them to, after its delay,
// updates only when its filter counts them; and nothing once the source stopped, although the
// informer goes on.
TEST_F(InformerSourceTest, ABorrowedInformersEventsQueueTheHandlersKeysUntilStopped) {
  SharedInformer informer(std::make_unique<test::FakeListerWatcher>(script_), clock_,
                          {.dispatch = &dispatch_});
  script_->pushList(sourceListOf({sourceObject("kf", "a"), sourceObject("other", "b")}));
  InformerSource source(informer);
  source.start(target_, enqueueMapped(inNamespace("kf"), seconds(10))
                            .updatesWhen([](const Json& before, const Json& after) {
                              return before["spec"] != after["spec"];
                            }));
  informer.start();
  ASSERT_TRUE(target_.waitFor("kf/a"));
  ASSERT_TRUE(test::waitUntil([&] { return script_->lastStream() != nullptr; }, seconds(30)));
  EXPECT_TRUE(source.synced());
  Json status_only = sourceObject("kf", "a");
  status_only["metadata"]["resourceVersion"] = "2";
  status_only["status"] = {{"ready", true}};
  script_->lastStream()->send(WatchEventType::kModified, status_only);
  script_->lastStream()->send(WatchEventType::kModified, sourceObject("kf", "a", 3));
  ASSERT_TRUE(target_.waitFor("kf/a", 2));
  script_->lastStream()->send(WatchEventType::kAdded, sourceObject("kf", "c"));
  ASSERT_TRUE(target_.waitFor("kf/c"));
  EXPECT_EQ(target_.count("kf/a"), 2U);  // the status-only update was not counted
  EXPECT_EQ(target_.count("other/b"), 0U);
  for (const Queued& queued : target_.queued()) EXPECT_EQ(queued.second, seconds(10));
  // Only the initial list is a backlog: not the update of the same object, nor a later add.
  EXPECT_EQ(target_.backlog(), std::vector<std::string>{"kf/a"});

  source.stop();
  script_->lastStream()->send(WatchEventType::kAdded, sourceObject("kf", "d"));
  ASSERT_TRUE(
      test::waitUntil([&] { return informer.store().get("kf/d") != nullptr; }, seconds(30)));
  ASSERT_TRUE(delivered(informer));
  EXPECT_EQ(target_.count("kf/d"), 0U);
  informer.stop();
}

// Verifies a source over an informer of its own starts it (the first list reaches the handler)
// and stops it.
TEST_F(InformerSourceTest, AnOwnedInformerRunsFromStartToStop) {
  script_->pushList(sourceListOf({sourceObject("kf", "a")}));
  InformerSource source(
      std::make_unique<SharedInformer>(std::make_unique<test::FakeListerWatcher>(script_), clock_));
  EXPECT_EQ(script_->listCount(), 0U);
  source.start(target_, enqueueObject());
  ASSERT_TRUE(target_.waitFor("kf/a"));
  ASSERT_TRUE(test::waitUntil([&] { return script_->lastStream() != nullptr; }, seconds(30)));
  source.stop();
  EXPECT_TRUE(test::waitUntil([&] { return script_->lastStream()->stopped(); }, seconds(30)));
}

// Verifies a leased source holds its informer until it is destroyed (stopping keeps the cache
// readable), and that a lease that cannot be had is an error.
TEST_F(InformerSourceTest, ALeasedSourceHoldsItsInformerUntilDestroyed) {
  test::FakeApiServer host(clock_);
  const GroupVersionResource config_maps{"", "v1", "configmaps", true};
  host.put(config_maps, {{"apiVersion", "v1"},
                         {"kind", "ConfigMap"},
                         {"metadata", {{"name", "a"}, {"namespace", "kf"}}}});
  InformerManager informers(
      [client = host.client()](const InformerKey& key) -> ListerWatcherPtr {
        if (key.resource.resource != "configmaps") return nullptr;
        return makeListerWatcher(client, key.resource, key.namespace_name, "", "");
      },
      clock_);
  auto source = InformerSource::lease(informers, {"", config_maps, "kf", "", ""});
  ASSERT_TRUE(source) << source.error().describe();
  EXPECT_EQ(informers.liveInformerCount(), 1U);
  source.value()->start(target_, enqueueObject());
  ASSERT_TRUE(target_.waitFor("kf/a"));
  source.value()->stop();
  EXPECT_NE(source.value()->store().get("kf/a"), nullptr);
  EXPECT_EQ(source.value()->keys(), std::vector<std::string>{"kf/a"});
  source.value().reset();
  EXPECT_EQ(informers.liveInformerCount(), 0U);

  EXPECT_FALSE(InformerSource::lease(informers, {"", {"", "v1", "secrets", true}, "", "", ""}));
  informers.stopAll();
}

class ClusterAvailabilitySourceTest : public ::testing::Test {
 protected:
  void setReady(const std::string& name, bool ready) {
    registry_.upsert(ClusterSnapshot{.name = name, .ready = ready}, nullptr);
  }

  test::FakeClock clock_;
  ClusterRegistry registry_{clock_};
  RecordingTarget target_;
  ClusterAvailabilitySource source_{registry_, clock_, seconds(20), seconds(60)};
  Handler every_key_ = enqueueAll([] { return std::vector<std::string>{"a", "b"}; }, seconds(3));
};

// Verifies a cluster becoming ready queues every key once the available delay passed, with the
// handler's delay, and that nothing is queued after stop().
TEST_F(ClusterAvailabilitySourceTest, AReadinessChangeQueuesEveryKeyAfterTheClusterDelay) {
  EXPECT_TRUE(source_.synced());
  source_.start(target_, every_key_);
  setReady("member1", true);
  clock_.advance(seconds(19));
  EXPECT_TRUE(target_.queued().empty());
  clock_.advance(seconds(1));
  EXPECT_EQ(target_.queued(), (std::vector<Queued>{{"a", seconds(3)}, {"b", seconds(3)}}));
  // A look at every key is a backlog, behind the changes users make meanwhile.
  EXPECT_EQ(target_.backlog(), (std::vector<std::string>{"a", "b"}));

  source_.stop();
  setReady("member1", false);
  clock_.advance(seconds(120));
  EXPECT_EQ(target_.queued().size(), 2U);
}

const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};

Json memberConfigMap(const std::string& name, bool managed, int data = 1) {
  Json object = {{"apiVersion", "v1"},
                 {"kind", "ConfigMap"},
                 {"metadata", {{"name", name}, {"namespace", "ns"}}},
                 {"data", {{"n", std::to_string(data)}}}};
  if (managed) object["metadata"]["labels"]["kubefed.io/managed"] = "true";
  return object;
}

// MemberInformers as a source, over two fake member API servers.
class MemberInformersTest : public ::testing::Test {
 protected:
  MemberInformersTest() {
    registry_.upsert({"member1", true, {}, nullptr}, member1_.client());
    registry_.upsert({"member2", true, {}, nullptr}, member2_.client());
  }
  ~MemberInformersTest() override {
    members_.reset();
    informers_.stopAll();
  }

  test::FakeClock clock_;
  test::FakeApiServer member1_{clock_};
  test::FakeApiServer member2_{clock_};
  ClusterRegistry registry_{clock_};
  TaskPool dispatch_{1, "dispatch"};  // one thread: see delivered()
  InformerManager informers_{[this](const InformerKey& key) -> ListerWatcherPtr {
                               auto client = registry_.client(key.cluster);
                               if (!client) return nullptr;
                               return makeListerWatcher(client.value(), key.resource,
                                                        key.namespace_name, key.label_selector,
                                                        key.field_selector);
                             },
                             clock_, SharedInformerOptions{.dispatch = &dispatch_}};
  TaskPool pool_{2, "member-io"};
  RecordingTarget target_;
  std::unique_ptr<MemberInformers> members_ = std::make_unique<MemberInformers>(
      MemberInformersOptions{.target = kConfigMaps, .target_namespace = ""}, informers_, registry_,
      clock_, pool_);
};

// Verifies a managed object of any ready cluster queues its key after the handler's delay (an
// unmanaged one nothing); a cluster that stops being ready loses its informer; after stop()
// nothing is queued but the caches stay readable, and destruction releases every informer.
TEST_F(MemberInformersTest, ManagedObjectsOfReadyClustersQueueTheirKeysUntilStopped) {
  member1_.put(kConfigMaps, memberConfigMap("a", /*managed=*/true));
  member2_.put(kConfigMaps, memberConfigMap("unmanaged", /*managed=*/false));
  members_->start(target_, enqueueObject(seconds(10)));
  ASSERT_TRUE(test::waitUntil([&] { return members_->synced(); }, seconds(30)));
  ASSERT_TRUE(target_.waitFor("ns/a"));
  member2_.put(kConfigMaps, memberConfigMap("b", /*managed=*/true));
  ASSERT_TRUE(target_.waitFor("ns/b"));
  EXPECT_EQ(target_.count("ns/unmanaged"), 0U);
  for (const Queued& queued : target_.queued()) EXPECT_EQ(queued.second, seconds(10));
  // The initial list's object is a backlog, the one created later is not.
  EXPECT_EQ(target_.backlog(), std::vector<std::string>{"ns/a"});
  EXPECT_EQ(informers_.liveInformerCount(), 2U);

  registry_.upsert({"member2", false, {}, nullptr}, member2_.client());
  ASSERT_TRUE(test::waitUntil([&] { return !members_->cached("member2", "ns/b"); }, seconds(30)));
  EXPECT_TRUE(members_->synced());  // every ready cluster has its informer
  // The lease is dropped from the source first; the informer stops once its last holder (work
  // in flight on the pool) lets go.
  EXPECT_TRUE(test::waitUntil([&] { return informers_.liveInformerCount() == 1U; }, seconds(30)))
      << informers_.liveInformerCount();

  members_->stop();
  member1_.put(kConfigMaps, memberConfigMap("a", /*managed=*/true, 2));
  ASSERT_TRUE(test::waitUntil(
      [&] {
        auto cached = members_->cached("member1", "ns/a");
        return cached && cached.value() && (*cached.value())["data"]["n"] == "2";
      },
      seconds(30)));
  auto probe = informers_.acquire({"member1", kConfigMaps, "", "kubefed.io/managed=true", ""});
  ASSERT_TRUE(probe);  // the informer the stopped source still leases
  ASSERT_TRUE(delivered(probe.value().informer()));
  EXPECT_EQ(target_.count("ns/a"), 1U);
  probe.value().release();
  members_.reset();
  EXPECT_EQ(informers_.liveInformerCount(), 0U);
}

// Verifies the member caches are not synced while the registry is not: with no cluster known
// yet, "every ready cluster has a synced informer" holds vacuously, and a sync pass would then
// place the object nowhere and drop its recorded versions.
TEST_F(MemberInformersTest, NotSyncedWhileTheRegistryIsNot) {
  std::atomic<bool> registry_complete{false};
  registry_.setSyncedCheck([&] { return registry_complete.load(); });
  members_->start(target_, enqueueObject());
  EXPECT_FALSE(test::waitUntil([&] { return members_->synced(); }, seconds(1)));
  registry_complete = true;
  EXPECT_TRUE(test::waitUntil([&] { return members_->synced(); }, seconds(30)));
  members_->stop();
  registry_.setSyncedCheck({});
}

}  // namespace
}  // namespace kf
