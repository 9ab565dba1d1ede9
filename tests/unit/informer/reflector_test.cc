#include "federation/informer/reflector.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/fake_clock.h"
#include "tests/unit/informer/fake_lister_watcher.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test::bookmark;
using test::goneStatus;
using test::makeJson;
using test::makeList;
using test::waitUntil;
using ::testing::ElementsAre;

class ReflectorTest : public ::testing::Test {
 protected:
  std::vector<std::string> keys() const {
    std::vector<std::string> out = store_.listKeys();
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string rvOf(const std::string& key) const {
    ObjectPtr object = store_.get(key);
    return object ? objectResourceVersion(*object) : "<absent>";
  }
  test::ListWatchScript& script() { return lister_watcher_.script(); }

  // Waits for the reflector to arm its backoff timer, checks it does not fire a moment early,
  // then lets it fire and waits for the retry it unblocks.
  void expectBackoffThenWatch(Duration backoff, std::size_t watches_after) {
    ASSERT_TRUE(waitUntil([&] { return clock_.pendingTimers() == 1; }));
    const std::size_t watches_before = script().watchCount();
    clock_.advance(backoff - milliseconds(1));
    EXPECT_EQ(clock_.pendingTimers(), 1U) << "backoff shorter than expected";
    EXPECT_EQ(script().watchCount(), watches_before);
    clock_.advance(milliseconds(1));
    ASSERT_TRUE(waitUntil([&] { return script().watchCount() == watches_after; }));
  }

  test::FakeClock clock_;
  test::FakeListerWatcher lister_watcher_;
  Store store_;
  StoreSink sink_{store_};
  Reflector reflector_{lister_watcher_, sink_, clock_, ReflectorOptions{.name = "test"}};
};

TEST_F(ReflectorTest, ListsThenWatchesFromTheListResourceVersion) {
  script().pushList(makeList("10", {makeJson("ns", "a", "5"), makeJson("ns", "b", "7")}));
  EXPECT_FALSE(reflector_.hasSynced());
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));

  EXPECT_TRUE(reflector_.hasSynced());
  EXPECT_EQ(reflector_.lastSyncResourceVersion(), "10");
  EXPECT_THAT(keys(), ElementsAre("ns/a", "ns/b"));
  EXPECT_EQ(store_.resourceVersion(), "10");

  const ListOptions list = script().listCalls().at(0);
  EXPECT_EQ(list.resource_version, "0");  // the first list may come from the server's cache
  EXPECT_EQ(list.limit, 500);
  EXPECT_EQ(list.continue_token, "");

  const ListOptions watch = script().watchCalls().at(0);
  EXPECT_EQ(watch.resource_version, "10");
  EXPECT_TRUE(watch.allow_watch_bookmarks);
  ASSERT_TRUE(watch.timeout_seconds.has_value());
  EXPECT_GE(*watch.timeout_seconds, 300);
  EXPECT_LE(*watch.timeout_seconds, 600);
}

TEST_F(ReflectorTest, AppliesWatchEventsAndBookmarksOnlyAdvanceTheVersion) {
  script().pushList(makeList("10", {makeJson("ns", "a", "5"), makeJson("ns", "b", "7")}));
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));
  auto stream = script().stream(0);

  stream->send(WatchEventType::kAdded, makeJson("ns", "c", "11"));
  stream->send(WatchEventType::kModified, makeJson("ns", "a", "12"));
  stream->send(WatchEventType::kDeleted, makeJson("ns", "b", "13"));
  ASSERT_TRUE(waitUntil([&] { return reflector_.lastSyncResourceVersion() == "13"; }));
  EXPECT_THAT(keys(), ElementsAre("ns/a", "ns/c"));
  EXPECT_EQ(rvOf("ns/a"), "12");

  stream->send(WatchEventType::kBookmark, bookmark("20"));
  ASSERT_TRUE(waitUntil([&] { return reflector_.lastSyncResourceVersion() == "20"; }));
  EXPECT_THAT(keys(), ElementsAre("ns/a", "ns/c"));
  EXPECT_EQ(script().listCount(), 1U);
}

TEST_F(ReflectorTest, CleanEndReopensTheWatchFromTheLastVersion) {
  script().pushList(makeList("10", {}));
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));
  script().stream(0)->send(WatchEventType::kBookmark, bookmark("15"));
  script().stream(0)->close();

  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 2; }));
  EXPECT_EQ(script().watchCalls().at(1).resource_version, "15");
  EXPECT_EQ(script().listCount(), 1U);    // no re-list
  EXPECT_EQ(clock_.pendingTimers(), 0U);  // and no backoff
}

TEST_F(ReflectorTest, GoneErrorEventRelistsAndStoreMatchesTheNewList) {
  script().pushList(makeList("10", {makeJson("ns", "stale", "3"), makeJson("ns", "kept", "4")}));
  script().pushList(makeList("30", {makeJson("ns", "kept", "25"), makeJson("ns", "missed", "28")}));
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));
  auto stream = script().stream(0);
  stream->send(WatchEventType::kAdded, makeJson("ns", "added", "11"));
  stream->send(WatchEventType::kError, goneStatus());

  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 2; }));
  EXPECT_EQ(script().listCount(), 2U);
  EXPECT_EQ(script().listCalls().at(0).resource_version, "0");
  EXPECT_EQ(script().listCalls().at(1).resource_version, "");  // a re-list reads the current state
  EXPECT_THAT(keys(), ElementsAre("ns/kept", "ns/missed"));
  EXPECT_EQ(rvOf("ns/kept"), "25");
  EXPECT_EQ(script().watchCalls().at(1).resource_version, "30");
  EXPECT_EQ(reflector_.lastSyncResourceVersion(), "30");
}

TEST_F(ReflectorTest, GoneFromWatchCallRelists) {
  script().pushList(makeList("10", {makeJson("ns", "a", "1")}));
  script().pushList(makeList("40", {makeJson("ns", "b", "39")}));
  script().pushWatchError(ApiError{Reason::kGone, 410, "too old", {}, std::nullopt});
  reflector_.start();

  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 2; }));
  EXPECT_EQ(script().listCount(), 2U);
  EXPECT_THAT(keys(), ElementsAre("ns/b"));
  EXPECT_EQ(script().watchCalls().at(1).resource_version, "40");
}

TEST_F(ReflectorTest, RepeatedGoneWithoutProgressIsPaced) {
  script().pushList(makeList("10", {}));
  script().pushList(makeList("20", {}));
  script().pushList(makeList("30", {}));
  script().pushWatchError(ApiError{Reason::kGone, 410, "too old", {}, std::nullopt});
  script().pushWatchError(ApiError{Reason::kGone, 410, "too old", {}, std::nullopt});
  reflector_.start();
  // The first Gone re-lists at once; the second, right after that re-list, waits first.
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 2; }));
  ASSERT_TRUE(waitUntil([&] { return clock_.pendingTimers() == 1; }));
  EXPECT_EQ(script().listCount(), 2U);
  clock_.advance(milliseconds(800));
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 3; }));
  EXPECT_EQ(script().listCount(), 3U);
  EXPECT_EQ(script().watchCalls().at(2).resource_version, "30");
}

TEST_F(ReflectorTest, PagesAreCombinedIntoOneReplace) {
  script().pushList(makeList("10", {makeJson("ns", "a", "1")}, "token-1"));
  script().pushList(makeList("10", {makeJson("ns", "b", "2")}, "token-2"));
  script().pushList(makeList("10", {makeJson("ns", "c", "3")}));
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));

  EXPECT_THAT(keys(), ElementsAre("ns/a", "ns/b", "ns/c"));
  const auto calls = script().listCalls();
  ASSERT_EQ(calls.size(), 3U);
  EXPECT_EQ(calls[0].resource_version, "0");
  EXPECT_EQ(calls[1].continue_token, "token-1");
  EXPECT_EQ(calls[1].resource_version, "");  // the token names the snapshot
  EXPECT_EQ(calls[2].continue_token, "token-2");
  EXPECT_EQ(calls[2].resource_version, "");
  EXPECT_EQ(calls[2].limit, 500);
  EXPECT_EQ(script().watchCalls().at(0).resource_version, "10");
}

TEST_F(ReflectorTest, ExpiredContinueTokenFallsBackToAnUnpagedList) {
  script().pushList(makeList("10", {makeJson("ns", "a", "1")}, "token-1"));
  script().pushList(ApiError{Reason::kExpired, 410, "continue expired", {}, std::nullopt});
  script().pushList(makeList("12", {makeJson("ns", "a", "1"), makeJson("ns", "b", "11")}));
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));

  const auto calls = script().listCalls();
  ASSERT_EQ(calls.size(), 3U);
  EXPECT_EQ(calls[1].continue_token, "token-1");
  EXPECT_EQ(calls[2].limit, 0);
  EXPECT_EQ(calls[2].continue_token, "");
  EXPECT_EQ(calls[2].resource_version, "");
  EXPECT_THAT(keys(), ElementsAre("ns/a", "ns/b"));
  EXPECT_EQ(script().watchCalls().at(0).resource_version, "12");
  EXPECT_EQ(clock_.pendingTimers(), 0U);  // a fallback, not a failure
}

TEST_F(ReflectorTest, ListFailureBacksOff) {
  script().pushList(ApiError{Reason::kInternalError, 500, "boom", {}, std::nullopt});
  script().pushList(makeList("10", {makeJson("ns", "a", "1")}));
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return clock_.pendingTimers() == 1; }));
  EXPECT_FALSE(reflector_.hasSynced());
  EXPECT_EQ(script().listCount(), 1U);
  clock_.advance(milliseconds(800));
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));
  EXPECT_EQ(script().listCount(), 2U);
  EXPECT_EQ(script().listCalls().at(1).resource_version, "0");  // still the first list
  EXPECT_TRUE(reflector_.hasSynced());
}

TEST_F(ReflectorTest, WatchErrorsBackOffExponentiallyUpToTheCapAndResetAfterAHealthyWatch) {
  script().pushList(makeList("10", {}));
  for (int i = 0; i < 8; ++i) {
    script().pushWatchError(ApiError{Reason::kServiceUnavailable, 503, "busy", {}, std::nullopt});
  }
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));
  const std::vector<Duration> expected = {
      milliseconds(800),   milliseconds(1600),  milliseconds(3200), milliseconds(6400),
      milliseconds(12800), milliseconds(25600), seconds(30),        seconds(30)};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    expectBackoffThenWatch(expected[i], i + 2);
  }
  // The 9th watch opens. It delivers an event, then breaks: the backoff starts over.
  auto stream = script().stream(8);
  ASSERT_NE(stream, nullptr);
  stream->send(WatchEventType::kAdded, makeJson("ns", "a", "11"));
  stream->fail(makeError(Reason::kConnectionFailed, "reset by peer"));
  expectBackoffThenWatch(milliseconds(800), 10);
  EXPECT_EQ(script().watchCalls().at(9).resource_version, "11");
  EXPECT_EQ(script().listCount(), 1U);  // errors other than Gone never re-list
}

TEST_F(ReflectorTest, NonGoneErrorEventBacksOffAndRewatches) {
  script().pushList(makeList("10", {}));
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));
  script().stream(0)->send(WatchEventType::kError,
                           Json{{"kind", "Status"}, {"code", 500}, {"message", "internal"}});
  expectBackoffThenWatch(milliseconds(800), 2);
  EXPECT_EQ(script().listCount(), 1U);
  EXPECT_EQ(script().watchCalls().at(1).resource_version, "10");
}

TEST_F(ReflectorTest, ImmediateCleanEndWithoutEventsBacksOff) {
  script().pushList(makeList("10", {}));
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));
  script().stream(0)->close();
  expectBackoffThenWatch(milliseconds(800), 2);
}

TEST_F(ReflectorTest, StopInterruptsABlockedWatch) {
  script().pushList(makeList("10", {}));
  reflector_.start();
  ASSERT_TRUE(waitUntil([&] { return script().watchCount() == 1; }));
  reflector_.stop();
  EXPECT_TRUE(script().stream(0)->stopped());
  reflector_.stop();   // idempotent
  reflector_.start();  // and final
  EXPECT_EQ(script().watchCount(), 1U);
}

TEST_F(ReflectorTest, StopInterruptsABackoffWait) {
  reflector_.start();  // no list scripted: it fails and backs off
  ASSERT_TRUE(waitUntil([&] { return clock_.pendingTimers() == 1; }));
  reflector_.stop();
  EXPECT_EQ(clock_.pendingTimers(), 0U);  // the wait's timer was cancelled
  EXPECT_FALSE(reflector_.hasSynced());
}

TEST(ReflectorOptionsTest, UnpagedListWhenPageSizeIsZero) {
  test::FakeClock clock;
  test::FakeListerWatcher lister_watcher;
  Store store;
  StoreSink sink(store);
  Reflector reflector(lister_watcher, sink, clock, ReflectorOptions{.page_size = 0});
  lister_watcher.script().pushList(makeList("3", {makeJson("", "node-1", "2")}));
  reflector.start();
  ASSERT_TRUE(waitUntil([&] { return lister_watcher.script().watchCount() == 1; }));
  EXPECT_EQ(lister_watcher.script().listCalls().at(0).limit, 0);
  EXPECT_NE(store.get("node-1"), nullptr);
}

// The threads of this process now.
std::size_t processThreads() {
  return static_cast<std::size_t>(
      std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                    std::filesystem::directory_iterator()));
}

// Verifies that reflectors own no threads: forty of them, listed and watching, run on the
// threads one already started (the shared pool's).
TEST(ReflectorThreadsTest, ManyReflectorsStartNoThreads) {
  struct Running {
    test::FakeListerWatcher lister_watcher;
    Store store;
    StoreSink sink{store};
    std::unique_ptr<Reflector> reflector;
  };
  test::FakeClock clock;
  auto run = [&clock](Running& one) {
    one.lister_watcher.script().pushList(makeList("1", {makeJson("ns", "a", "1")}));
    one.reflector = std::make_unique<Reflector>(one.lister_watcher, one.sink, clock);
    one.reflector->start();
  };
  auto watching = [](const Running& one) { return one.lister_watcher.script().watchCount() == 1; };

  Running first;
  run(first);
  ASSERT_TRUE(waitUntil([&] { return watching(first); }));
  const std::size_t threads_with_one = processThreads();

  std::vector<std::unique_ptr<Running>> more;
  for (int i = 0; i < 40; ++i) {
    more.push_back(std::make_unique<Running>());
    run(*more.back());
  }
  for (const auto& one : more) {
    ASSERT_TRUE(waitUntil([&] { return watching(*one); }));
    EXPECT_NE(one->store.get("ns/a"), nullptr);
  }
  EXPECT_EQ(processThreads(), threads_with_one);
  for (const auto& one : more) {
    one->reflector->stop();
    EXPECT_TRUE(one->lister_watcher.script().stream(0)->stopped());
  }
}

}  // namespace
}  // namespace kf
