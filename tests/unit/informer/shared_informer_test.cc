#include "federation/informer/shared_informer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/fake_clock.h"
#include "tests/support/waiting.h"
#include "tests/unit/informer/fake_lister_watcher.h"
#include "tests/unit/informer/recording_handler.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test::Counter;
using test::Gate;
using test::goneStatus;
using test::makeJson;
using test::makeList;
using test::RecordingHandler;
using test::waitUntil;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// Records like RecordingHandler, but each call first waits for `gate`: a slow handler.
class GatedHandler final : public EventHandler {
 public:
  GatedHandler(Gate& gate, Counter& entered) : gate_(gate), entered_(entered) {}
  void onAdd(const ObjectPtr& object, bool is_initial_list) override {
    waitForGate();
    recorder.onAdd(object, is_initial_list);
  }
  void onUpdate(const ObjectPtr& old_object, const ObjectPtr& new_object) override {
    waitForGate();
    recorder.onUpdate(old_object, new_object);
  }
  void onDelete(const DeletedObject& deleted) override {
    waitForGate();
    recorder.onDelete(deleted);
  }

  RecordingHandler recorder;

 private:
  void waitForGate() {
    entered_.add();
    EXPECT_TRUE(gate_.pass());
  }

  Gate& gate_;
  Counter& entered_;
};

// The informer calls its handlers on a pool of its own with the dispatch pool's two threads; what
// the handlers wait on is declared before it, so it outlives their calls.
class SharedInformerTest : public ::testing::Test {
 protected:
  SharedInformerTest() {
    auto lister_watcher = std::make_unique<test::FakeListerWatcher>(script_);
    informer_ = std::make_unique<SharedInformer>(std::move(lister_watcher), clock_,
                                                 SharedInformerOptions{.dispatch = &dispatch_});
  }

  // Starts the informer on a first list (and any later ones) and waits for its watch to open.
  void startWithList(ObjectList list, std::vector<ObjectList> later = {}) {
    script_->pushList(std::move(list));
    for (ObjectList& next : later) {
      script_->pushList(std::move(next));
    }
    informer_->start();
    ASSERT_TRUE(waitUntil([&] { return script_->watchCount() == 1; }));
  }

  Gate gate_;
  Counter entered_;
  test::FakeClock clock_;
  std::shared_ptr<test::ListWatchScript> script_ = std::make_shared<test::ListWatchScript>();
  TaskPool dispatch_{2, "dispatch"};
  std::unique_ptr<SharedInformer> informer_;
};

TEST_F(SharedInformerTest, HandlerSeesInitialListThenAddUpdateDelete) {
  auto handler = std::make_shared<RecordingHandler>();
  const HandlerId id = informer_->addEventHandler(handler);
  EXPECT_FALSE(informer_->hasSynced());
  EXPECT_FALSE(informer_->handlerSynced(id));
  startWithList(makeList("10", {makeJson("ns", "a", "5"), makeJson("ns", "b", "7")}));

  ASSERT_TRUE(handler->waitForCount(2));
  EXPECT_THAT(handler->take(), UnorderedElementsAre("add ns/a 5 initial", "add ns/b 7 initial"));
  EXPECT_TRUE(informer_->hasSynced());
  ASSERT_TRUE(waitUntil([&] { return informer_->handlerSynced(id); }));
  EXPECT_EQ(informer_->lastSyncResourceVersion(), "10");

  auto stream = script_->stream(0);
  stream->send(WatchEventType::kAdded, makeJson("ns", "c", "11"));
  stream->send(WatchEventType::kModified, makeJson("ns", "a", "12"));
  stream->send(WatchEventType::kDeleted, makeJson("ns", "b", "13"));
  // A MODIFIED for an object the cache never had is an add to handlers.
  stream->send(WatchEventType::kModified, makeJson("ns", "d", "14"));
  // A DELETED for one it never had is nothing.
  stream->send(WatchEventType::kDeleted, makeJson("ns", "ghost", "15"));
  stream->send(WatchEventType::kAdded, makeJson("ns", "e", "16"));
  ASSERT_TRUE(handler->waitForCount(5));
  EXPECT_THAT(handler->take(), ElementsAre("add ns/c 11", "update ns/a 5->12", "delete ns/b 13",
                                           "add ns/d 14", "add ns/e 16"));
  EXPECT_NE(informer_->store().get("ns/a"), nullptr);
  EXPECT_EQ(informer_->store().get("ns/b"), nullptr);
}

TEST_F(SharedInformerTest, DeleteMissedWhileDisconnectedArrivesAsFinalStateUnknown) {
  auto handler = std::make_shared<RecordingHandler>();
  informer_->addEventHandler(handler);
  startWithList(makeList("10", {makeJson("ns", "kept", "4"), makeJson("ns", "changed", "5"),
                                makeJson("ns", "gone", "6")}),
                {makeList("30", {makeJson("ns", "kept", "4"), makeJson("ns", "changed", "25"),
                                 makeJson("ns", "missed", "28")})});
  ASSERT_TRUE(handler->waitForCount(3));
  handler->take();

  script_->stream(0)->send(WatchEventType::kError, goneStatus());
  ASSERT_TRUE(waitUntil([&] { return script_->watchCount() == 2; }));
  ASSERT_TRUE(handler->waitForCount(3));
  // The unchanged object is not news; the changed one is an update, the new one an add.
  EXPECT_THAT(handler->take(), UnorderedElementsAre("add ns/missed 28", "update ns/changed 5->25",
                                                    "delete ns/gone 6 unknown"));
  std::vector<std::string> keys = informer_->store().listKeys();
  std::sort(keys.begin(), keys.end());
  EXPECT_THAT(keys, ElementsAre("ns/changed", "ns/kept", "ns/missed"));
}

TEST_F(SharedInformerTest, DeletedObjectCarriesKeyAndLastKnownState) {
  std::vector<DeletedObject> deletes;
  Mutex mu;
  auto handler = std::make_shared<EventHandlerFuncs>();
  handler->on_delete = [&](const DeletedObject& deleted) {
    MutexLock lock(mu);
    deletes.push_back(deleted);
  };
  informer_->addEventHandler(handler);
  startWithList(makeList("10", {makeJson("ns", "a", "5"), makeJson("ns", "b", "6")}),
                {makeList("30", {})});
  script_->stream(0)->send(WatchEventType::kDeleted, makeJson("ns", "a", "11"));
  script_->stream(0)->send(WatchEventType::kError, goneStatus());
  ASSERT_TRUE(waitUntil([&] {
    MutexLock lock(mu);
    return deletes.size() == 2;
  }));
  MutexLock lock(mu);
  EXPECT_EQ(deletes[0].key, "ns/a");
  EXPECT_FALSE(deletes[0].final_state_unknown);
  EXPECT_EQ(objectResourceVersion(*deletes[0].last_known), "11");  // the server's final state
  EXPECT_EQ(deletes[1].key, "ns/b");
  EXPECT_TRUE(deletes[1].final_state_unknown);
  EXPECT_EQ(objectResourceVersion(*deletes[1].last_known), "6");  // the last one cached
}

TEST_F(SharedInformerTest, LateHandlerGetsSyntheticAddsThenLiveEvents) {
  startWithList(makeList("10", {makeJson("ns", "a", "5"), makeJson("ns", "b", "7")}));
  ASSERT_TRUE(informer_->waitForSync(std::chrono::steady_clock::now() + seconds(5)));

  auto late = std::make_shared<RecordingHandler>();
  const HandlerId id = informer_->addEventHandler(late);
  ASSERT_TRUE(late->waitForCount(2));
  ASSERT_TRUE(waitUntil([&] { return informer_->handlerSynced(id); }));
  script_->stream(0)->send(WatchEventType::kAdded, makeJson("ns", "c", "11"));
  ASSERT_TRUE(late->waitForCount(3));
  const auto events = late->events();
  EXPECT_THAT(std::vector<std::string>(events.begin(), events.begin() + 2),
              UnorderedElementsAre("add ns/a 5 initial", "add ns/b 7 initial"));
  EXPECT_EQ(events[2], "add ns/c 11");
}

TEST_F(SharedInformerTest, ResyncDeliversUpdatesForEveryObjectOnTheClock) {
  auto resyncing = std::make_shared<RecordingHandler>();
  auto quiet = std::make_shared<RecordingHandler>();
  informer_->addEventHandler(resyncing, seconds(30));
  informer_->addEventHandler(quiet);
  startWithList(makeList("10", {makeJson("ns", "a", "5"), makeJson("ns", "b", "7")}));
  ASSERT_TRUE(resyncing->waitForCount(2));
  ASSERT_TRUE(quiet->waitForCount(2));
  resyncing->take();
  quiet->take();

  clock_.advance(seconds(29));
  clock_.advance(seconds(1));
  ASSERT_TRUE(resyncing->waitForCount(2));
  EXPECT_THAT(resyncing->take(), UnorderedElementsAre("update ns/a 5->5", "update ns/b 7->7"));

  clock_.advance(seconds(30));  // and again, every period
  ASSERT_TRUE(resyncing->waitForCount(2));
  EXPECT_THAT(resyncing->take(), UnorderedElementsAre("update ns/a 5->5", "update ns/b 7->7"));

  // A marker event proves the quiet handler's queue is drained: it got no resync.
  script_->stream(0)->send(WatchEventType::kAdded, makeJson("ns", "marker", "11"));
  ASSERT_TRUE(quiet->waitForCount(1));
  EXPECT_THAT(quiet->events(), ElementsAre("add ns/marker 11"));
}

TEST_F(SharedInformerTest, DefaultResyncAppliesToHandlersWithoutTheirOwn) {
  auto lister_watcher = std::make_unique<test::FakeListerWatcher>(script_);
  SharedInformer informer(std::move(lister_watcher), clock_,
                          SharedInformerOptions{.default_resync = seconds(10)});
  auto handler = std::make_shared<RecordingHandler>();
  auto opted_out = std::make_shared<RecordingHandler>();
  informer.addEventHandler(handler);
  informer.addEventHandler(opted_out, Duration::zero());
  script_->pushList(makeList("10", {makeJson("ns", "a", "5")}));
  informer.start();
  ASSERT_TRUE(handler->waitForCount(1));
  ASSERT_TRUE(opted_out->waitForCount(1));
  EXPECT_EQ(clock_.pendingTimers(), 1U);  // only the default one
  clock_.advance(seconds(10));
  ASSERT_TRUE(handler->waitForCount(2));
  EXPECT_EQ(handler->events()[1], "update ns/a 5->5");
}

TEST_F(SharedInformerTest, RemovedHandlerGetsNothingMore) {
  auto kept = std::make_shared<RecordingHandler>();
  auto removed = std::make_shared<RecordingHandler>();
  informer_->addEventHandler(kept);
  const HandlerId id = informer_->addEventHandler(removed, seconds(5));
  startWithList(makeList("10", {makeJson("ns", "a", "5")}));
  ASSERT_TRUE(removed->waitForCount(1));

  informer_->removeEventHandler(id);
  informer_->removeEventHandler(id);  // unknown ids are ignored
  EXPECT_FALSE(informer_->handlerSynced(id));
  EXPECT_EQ(clock_.pendingTimers(), 0U);  // its resync timer is gone too
  script_->stream(0)->send(WatchEventType::kAdded, makeJson("ns", "b", "11"));
  ASSERT_TRUE(kept->waitForCount(2));
  EXPECT_EQ(removed->count(), 1U);
}

TEST_F(SharedInformerTest, HandlerMayRemoveItselfFromItsOwnCallback) {
  HandlerId self = 0;
  std::atomic<int> calls{0};
  auto handler = std::make_shared<EventHandlerFuncs>();
  handler->on_add = [&](const ObjectPtr&, bool) {
    ++calls;
    informer_->removeEventHandler(self);
  };
  self = informer_->addEventHandler(handler);
  auto witness = std::make_shared<RecordingHandler>();
  informer_->addEventHandler(witness);
  startWithList(makeList("10", {makeJson("ns", "a", "5"), makeJson("ns", "b", "6")}));
  script_->stream(0)->send(WatchEventType::kAdded, makeJson("ns", "c", "11"));
  ASSERT_TRUE(waitUntil([&] { return calls.load() == 1; }));
  ASSERT_TRUE(witness->waitForCount(3));
  EXPECT_EQ(calls.load(), 1);  // its first call removed it: the queued adds were dropped
}

TEST_F(SharedInformerTest, WaitForSyncTimesOutWithoutAListAndReturnsOnceSynced) {
  informer_->start();  // nothing scripted: the list fails and backs off
  EXPECT_FALSE(informer_->waitForSync(std::chrono::steady_clock::now() + milliseconds(20)));
  ASSERT_TRUE(waitUntil([&] { return clock_.pendingTimers() == 1; }));
  EXPECT_FALSE(informer_->hasSynced());
  script_->pushList(makeList("10", {}));
  clock_.advance(milliseconds(800));
  EXPECT_TRUE(informer_->waitForSync(std::chrono::steady_clock::now() + seconds(5)));
}

TEST_F(SharedInformerTest, IndexersOnlyBeforeStart) {
  ASSERT_TRUE(informer_->addIndexers(
      {{"name", [](const Json& object) { return std::vector<std::string>{objectName(object)}; }}}));
  startWithList(makeList("10", {makeJson("ns1", "a", "5"), makeJson("ns2", "a", "6")}));
  EXPECT_THAT(informer_->store().indexKeys("name", "a").value(), ElementsAre("ns1/a", "ns2/a"));
  EXPECT_THAT(informer_->store().indexKeys(kNamespaceIndex, "ns2").value(), ElementsAre("ns2/a"));
  EXPECT_FALSE(
      informer_->addIndexers({{"late", [](const Json&) { return std::vector<std::string>{}; }}}));
}

TEST_F(SharedInformerTest, StopJoinsAndStopsTheWatch) {
  auto handler = std::make_shared<RecordingHandler>();
  const HandlerId id = informer_->addEventHandler(handler, seconds(1));
  startWithList(makeList("10", {makeJson("ns", "a", "5")}));
  informer_->stop();
  EXPECT_TRUE(script_->stream(0)->stopped());
  EXPECT_EQ(clock_.pendingTimers(), 0U);
  EXPECT_FALSE(informer_->handlerSynced(id));
  const std::size_t seen = handler->count();
  clock_.advance(seconds(5));  // no resync after stop
  informer_->addEventHandler(handler);
  EXPECT_EQ(handler->count(), seen);
  informer_->stop();  // idempotent
}

TEST_F(SharedInformerTest, DestructorStopsEverything) {
  auto handler = std::make_shared<RecordingHandler>();
  informer_->addEventHandler(handler, seconds(1));
  startWithList(makeList("10", {makeJson("ns", "a", "5")}));
  auto stream = script_->stream(0);
  informer_.reset();
  EXPECT_TRUE(stream->stopped());
  EXPECT_TRUE(script_->listerWatcherDestroyed());
  EXPECT_EQ(clock_.pendingTimers(), 0U);
}

TEST_F(SharedInformerTest, ManyEventsArriveInOrderAtEveryHandler) {
  std::vector<std::shared_ptr<RecordingHandler>> handlers;
  for (int i = 0; i < 3; ++i) {
    handlers.push_back(std::make_shared<RecordingHandler>());
    informer_->addEventHandler(handlers.back());
  }
  startWithList(makeList("1", {}));
  std::vector<std::string> expected;
  for (int i = 2; i < 200; ++i) {
    const std::string rv = std::to_string(i);
    script_->stream(0)->send(WatchEventType::kModified, makeJson("ns", "counter", rv));
    expected.push_back(i == 2 ? "add ns/counter 2"
                              : "update ns/counter " + std::to_string(i - 1) + "->" + rv);
  }
  for (const auto& handler : handlers) {
    ASSERT_TRUE(handler->waitForCount(expected.size()));
    EXPECT_EQ(handler->events(), expected);
  }
}

// The slow handler holds one of the pool's two threads; the other keeps delivering to the rest.
// Its backlog, longer than one drain delivers, then arrives complete and in order.
TEST_F(SharedInformerTest, ASlowHandlerDelaysOnlyItselfAndThenGetsEverythingInOrder) {
  auto slow = std::make_shared<GatedHandler>(gate_, entered_);
  auto fast = std::make_shared<RecordingHandler>();
  informer_->addEventHandler(slow);
  informer_->addEventHandler(fast);
  startWithList(makeList("1", {makeJson("ns", "counter", "1")}));
  ASSERT_TRUE(entered_.waitFor(1));  // blocked in its first call
  for (int i = 2; i <= 300; ++i) {
    script_->stream(0)->send(WatchEventType::kModified,
                             makeJson("ns", "counter", std::to_string(i)));
  }
  ASSERT_TRUE(fast->waitForCount(300));
  EXPECT_EQ(slow->recorder.count(), 0U);
  gate_.open();
  ASSERT_TRUE(slow->recorder.waitForCount(300));
  EXPECT_EQ(slow->recorder.events(), fast->events());
}

TEST_F(SharedInformerTest, RemoveEventHandlerWaitsForTheCallInProgressAndThenCallsNoMore) {
  std::atomic<bool> remove_returned{false};
  std::atomic<int> calls{0};
  std::atomic<int> calls_when_removed{-1};
  auto handler = std::make_shared<EventHandlerFuncs>();
  handler->on_add = [&](const ObjectPtr&, bool) {
    ++calls;
    entered_.add();
    EXPECT_TRUE(gate_.pass());
    EXPECT_FALSE(remove_returned.load()) << "removeEventHandler returned during a call";
  };
  auto witness = std::make_shared<RecordingHandler>();
  const HandlerId id = informer_->addEventHandler(handler);
  informer_->addEventHandler(witness);
  startWithList(makeList("1", {makeJson("ns", "a", "1"), makeJson("ns", "b", "2")}));
  ASSERT_TRUE(entered_.waitFor(1));
  std::thread remover([&] {
    informer_->removeEventHandler(id);
    remove_returned = true;
    calls_when_removed = calls.load();
  });
  gate_.open();
  remover.join();
  script_->stream(0)->send(WatchEventType::kAdded, makeJson("ns", "c", "3"));
  ASSERT_TRUE(witness->waitForCount(3));
  EXPECT_EQ(calls.load(), calls_when_removed.load());
}

}  // namespace
}  // namespace kf
