#include "federation/events/event_object.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

using std::chrono::seconds;
using std::chrono::system_clock;

// Verifies metav1.Time's JSON form: UTC, whole seconds, "Z".
TEST(EventObjectTest, FormatsTimestampsAsRfc3339Seconds) {
  const system_clock::time_point at{seconds(1'700'000'000) + std::chrono::milliseconds(999)};
  EXPECT_EQ(formatEventTimestamp(at), "2023-11-14T22:13:20Z");
  EXPECT_EQ(formatEventTimestamp(system_clock::time_point{}), "1970-01-01T00:00:00Z");
}

// Verifies event names: object name, a dot, 16 lowercase hex digits of the nanoseconds.
TEST(EventObjectTest, NamesEventsAfterObjectAndNanoseconds) {
  EXPECT_EQ(eventName("cm", 0x1797a04466e2a000ULL), "cm.1797a04466e2a000");
  EXPECT_EQ(eventName("x", 255), "x.00000000000000ff");
}

// Verifies an empty host leaves source.host and reportingInstance out, as omitempty does.
TEST(EventObjectTest, LeavesOutEmptyFields) {
  const EventRecord record{.object = {.kind = "Namespace", .name = "n"},
                           .type = EventType::kNormal,
                           .reason = "R",
                           .message = "m",
                           .at = {}};
  const Json event = makeEventObject(record, {.component = "c", .host = ""}, "n.1", 1, "");
  EXPECT_EQ(event["source"], (Json{{"component", "c"}}));
  EXPECT_FALSE(event.contains("reportingInstance"));
  EXPECT_EQ(event["involvedObject"], (Json{{"kind", "Namespace"}, {"name", "n"}}));
  EXPECT_EQ(event["type"], "Normal");
}

// Verifies a repeat keeps the first occurrence's firstTimestamp when one is given.
TEST(EventObjectTest, KeepsFirstTimestampOfEarlierOccurrence) {
  const EventRecord record{.object = {.name = "n"}, .at = system_clock::time_point{seconds(60)}};
  const Json event = makeEventObject(record, {.component = "c"}, "n.1", 3, "1970-01-01T00:00:00Z");
  EXPECT_EQ(event["firstTimestamp"], "1970-01-01T00:00:00Z");
  EXPECT_EQ(event["lastTimestamp"], "1970-01-01T00:01:00Z");
  EXPECT_EQ(event["count"], 3);
}

// Verifies referenceTo reads apiVersion, kind and the metadata fields of an object.
TEST(EventObjectTest, ReferenceToReadsTheObject) {
  const Json object = {{"apiVersion", "core.kubefed.io/v1beta1"},
                       {"kind", "KubeFedCluster"},
                       {"metadata",
                        {{"name", "member1"},
                         {"namespace", "kube-federation-system"},
                         {"uid", "u"},
                         {"resourceVersion", "7"}}}};
  const ObjectReference ref = referenceTo(object);
  EXPECT_EQ(ref.api_version, "core.kubefed.io/v1beta1");
  EXPECT_EQ(ref.kind, "KubeFedCluster");
  EXPECT_EQ(ref.namespace_name, "kube-federation-system");
  EXPECT_EQ(ref.name, "member1");
  EXPECT_EQ(ref.uid, "u");
  EXPECT_EQ(ref.resource_version, "7");
  EXPECT_EQ(referenceTo(Json("not an object")).name, "");
}

}  // namespace
}  // namespace kf
