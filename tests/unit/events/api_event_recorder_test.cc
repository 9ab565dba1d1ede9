#include "federation/events/api_event_recorder.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>

#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

// FakeClock's wall clock starts at 1,700,000,000 s + 1 h (its steady clock starts at 1 h).
constexpr char kStartTimestamp[] = "2023-11-14T23:13:20Z";
constexpr std::uint64_t kStartNanos = 1'700'003'600'000'000'000ULL;

ObjectReference configMap(const std::string& name = "cm") {
  return {.api_version = "v1",
          .kind = "ConfigMap",
          .namespace_name = "ns",
          .name = name,
          .uid = "uid-1",
          .resource_version = "42"};
}

Json bodyOf(const HttpRequest& request) { return Json::parse(request.body); }

class ApiEventRecorderTest : public ::testing::Test {
 protected:
  std::unique_ptr<ApiEventRecorder> makeRecorder(EventRecorderOptions options = {}) {
    return std::make_unique<ApiEventRecorder>(client_, "kubefedcluster-controller", "node-a",
                                              clock_, options);
  }

  // Sends one event and waits until the fake saw it.
  void recordAndWait(ApiEventRecorder& recorder, const ObjectReference& object,
                     const std::string& message = "Cluster not ready") {
    const std::size_t before = api_.requests().size();
    recorder.event(object, EventType::kWarning, "ClusterNotReady", message);
    ASSERT_TRUE(api_.waitForRequests(before + 1));
  }

  test::FakeClock clock_;
  test::FakeApiServer api_{clock_};
  // No client-side rate limit: the fake clock would never refill it.
  RestClient client_{test::fakeServerConfig(), api_.transport(), clock_};
};

// Verifies the Event written for a first occurrence carries every field client-go writes.
TEST_F(ApiEventRecorderTest, CreatesEventWithAllFields) {
  auto recorder = makeRecorder();
  recordAndWait(*recorder, configMap());
  recorder->stop();

  const auto requests = api_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "POST");
  EXPECT_EQ(requests[0].target, "/api/v1/namespaces/ns/events");
  const Json event = bodyOf(requests[0]);
  EXPECT_EQ(event["apiVersion"], "v1");
  EXPECT_EQ(event["kind"], "Event");
  EXPECT_EQ(event["metadata"]["name"], eventName("cm", kStartNanos));
  EXPECT_EQ(event["metadata"]["name"], "cm.1797a04466e2a000");
  EXPECT_EQ(event["metadata"]["namespace"], "ns");
  EXPECT_EQ(event["involvedObject"], (Json{{"apiVersion", "v1"},
                                           {"kind", "ConfigMap"},
                                           {"namespace", "ns"},
                                           {"name", "cm"},
                                           {"uid", "uid-1"},
                                           {"resourceVersion", "42"}}));
  EXPECT_EQ(event["reason"], "ClusterNotReady");
  EXPECT_EQ(event["message"], "Cluster not ready");
  EXPECT_EQ(event["type"], "Warning");
  EXPECT_EQ(event["source"],
            (Json{{"component", "kubefedcluster-controller"}, {"host", "node-a"}}));
  EXPECT_EQ(event["firstTimestamp"], kStartTimestamp);
  EXPECT_EQ(event["lastTimestamp"], kStartTimestamp);
  EXPECT_EQ(event["count"], 1);
  EXPECT_EQ(event["reportingComponent"], "kubefedcluster-controller");
  EXPECT_EQ(event["reportingInstance"], "node-a");
  EXPECT_EQ(recorder->stats().created, 1u);
}

// Verifies events about cluster-scoped objects go to the "default" namespace.
TEST_F(ApiEventRecorderTest, ClusterScopedObjectEventsGoToDefault) {
  auto recorder = makeRecorder();
  recordAndWait(*recorder, {.api_version = "v1", .kind = "Namespace", .name = "team-a"});
  recorder->stop();
  const auto requests = api_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].target, "/api/v1/namespaces/default/events");
  const Json event = bodyOf(requests[0]);
  EXPECT_EQ(event["metadata"]["namespace"], "default");
  EXPECT_FALSE(event["involvedObject"].contains("namespace"));
}

// Verifies a repeat within the window patches count and lastTimestamp of the same Event.
TEST_F(ApiEventRecorderTest, RepeatWithinWindowPatchesCount) {
  auto recorder = makeRecorder();
  recordAndWait(*recorder, configMap());
  clock_.advance(minutes(1));
  recordAndWait(*recorder, configMap());
  clock_.advance(minutes(9));  // 9 minutes after the previous occurrence: still a repeat
  recordAndWait(*recorder, configMap());
  recorder->stop();

  const auto requests = api_.requests();
  ASSERT_EQ(requests.size(), 3u);
  const std::string name = bodyOf(requests[0])["metadata"]["name"];
  EXPECT_EQ(requests[1].method, "PATCH");
  EXPECT_EQ(requests[1].target, "/api/v1/namespaces/ns/events/" + name);
  EXPECT_EQ(requests[1].headers.at("Content-Type"), "application/strategic-merge-patch+json");
  EXPECT_EQ(bodyOf(requests[1]), (Json{{"count", 2},
                                       {"lastTimestamp", "2023-11-14T23:14:20Z"},
                                       {"message", "Cluster not ready"}}));
  EXPECT_EQ(requests[2].method, "PATCH");
  EXPECT_EQ(bodyOf(requests[2])["count"], 3);
  EXPECT_EQ(bodyOf(requests[2])["lastTimestamp"], "2023-11-14T23:23:20Z");
  EXPECT_EQ(recorder->stats().patched, 2u);
}

// Verifies a repeat after the window, or with another message, creates a new Event.
TEST_F(ApiEventRecorderTest, LateRepeatOrOtherMessageCreatesNewEvent) {
  auto recorder = makeRecorder();
  recordAndWait(*recorder, configMap());
  clock_.advance(minutes(10) + seconds(1));
  recordAndWait(*recorder, configMap());
  recordAndWait(*recorder, configMap(), "another message");
  recordAndWait(*recorder, configMap("other-object"));
  recorder->stop();

  const auto requests = api_.requests();
  ASSERT_EQ(requests.size(), 4u);
  for (const auto& request : requests) EXPECT_EQ(request.method, "POST");
  EXPECT_NE(bodyOf(requests[0])["metadata"]["name"], bodyOf(requests[1])["metadata"]["name"]);
  EXPECT_EQ(bodyOf(requests[1])["count"], 1);
}

// Verifies that when the Event to patch is gone, the occurrence is created anew.
TEST_F(ApiEventRecorderTest, PatchNotFoundCreatesAnew) {
  auto recorder = makeRecorder();
  recordAndWait(*recorder, configMap());
  api_.respondNext(test::statusResponse(404, "NotFound", "events \"cm.x\" not found"));
  recorder->event(configMap(), EventType::kWarning, "ClusterNotReady", "Cluster not ready");
  ASSERT_TRUE(api_.waitForRequests(3));
  recorder->stop();

  const auto requests = api_.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[1].method, "PATCH");
  EXPECT_EQ(requests[2].method, "POST");
  EXPECT_EQ(bodyOf(requests[2])["count"], 1);
}

// Verifies a refused write is counted as failed and the next event is still written.
TEST_F(ApiEventRecorderTest, FailedWriteIsCountedAndSenderContinues) {
  auto recorder = makeRecorder();
  api_.respondNext(test::statusResponse(403, "Forbidden", "events is forbidden"));
  recordAndWait(*recorder, configMap());
  recordAndWait(*recorder, configMap());  // not a repeat: the first was never written
  recorder->stop();
  const auto requests = api_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(recorder->stats().failed, 1u);
  EXPECT_EQ(recorder->stats().created, 1u);
}

// Verifies event() does not wait for a busy sender: past the queue capacity events are dropped
// and counted, and the queued ones are written afterwards.
TEST_F(ApiEventRecorderTest, FullQueueDropsAndCounts) {
  auto recorder = makeRecorder({.queue_capacity = 2});
  api_.hold();
  recorder->event(configMap("a"), EventType::kNormal, "R", "m");
  ASSERT_TRUE(api_.waitForRequests(1));  // "a" is in flight, the queue is empty
  for (const char* name : {"b", "c", "d", "e"}) {
    recorder->event(configMap(name), EventType::kNormal, "R", "m");
  }
  EXPECT_EQ(recorder->stats().dropped, 2u);  // "d" and "e"
  api_.release();
  recorder->stop();

  const auto requests = api_.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(bodyOf(requests[1])["involvedObject"]["name"], "b");
  EXPECT_EQ(bodyOf(requests[2])["involvedObject"]["name"], "c");
  EXPECT_EQ(recorder->stats().created, 3u);
  EXPECT_EQ(recorder->stats().dropped, 2u);
}

// Verifies stop() writes what is queued, joins the sender, and that later events are dropped.
TEST_F(ApiEventRecorderTest, StopDrainsQueueAndJoins) {
  auto recorder = makeRecorder();
  api_.hold();
  recorder->event(configMap("a"), EventType::kNormal, "R", "m");
  ASSERT_TRUE(api_.waitForRequests(1));
  recorder->event(configMap("b"), EventType::kNormal, "R", "m");
  recorder->event(configMap("c"), EventType::kNormal, "R", "m");
  recorder->requestStop();
  api_.release();
  recorder->stop();
  EXPECT_EQ(api_.requests().size(), 3u);  // the sender finished: nothing more arrives

  recorder->event(configMap("d"), EventType::kNormal, "R", "m");
  recorder->stop();  // idempotent
  EXPECT_EQ(api_.requests().size(), 3u);
  EXPECT_EQ(recorder->stats().created, 3u);
  EXPECT_EQ(recorder->stats().dropped, 1u);
}

// Verifies draining ends at the deadline: what is still queued then is dropped.
TEST_F(ApiEventRecorderTest, StopDropsWhatIsLeftAfterDrainTimeout) {
  auto recorder = makeRecorder({.drain_timeout = seconds(5)});
  api_.hold();
  recorder->event(configMap("a"), EventType::kNormal, "R", "m");
  ASSERT_TRUE(api_.waitForRequests(1));
  recorder->event(configMap("b"), EventType::kNormal, "R", "m");
  recorder->event(configMap("c"), EventType::kNormal, "R", "m");
  recorder->requestStop();
  clock_.advance(seconds(6));  // "a" is still in flight when the deadline passes
  api_.release();
  recorder->stop();
  EXPECT_EQ(api_.requests().size(), 1u);
  EXPECT_EQ(recorder->stats().created, 1u);
  EXPECT_EQ(recorder->stats().dropped, 2u);
}

// Verifies the destructor stops and joins, and concurrent stop() calls are safe.
TEST_F(ApiEventRecorderTest, ConcurrentStopAndDestructorJoin) {
  auto recorder = makeRecorder();
  for (int i = 0; i < 20; ++i) {
    recorder->event(configMap("o" + std::to_string(i)), EventType::kNormal, "R", "m");
  }
  {
    std::jthread a([&] { recorder->stop(); });
    std::jthread b([&] { recorder->stop(); });
  }
  recorder.reset();
  EXPECT_EQ(api_.requests().size(), 20u);
}

}  // namespace
}  // namespace kf
