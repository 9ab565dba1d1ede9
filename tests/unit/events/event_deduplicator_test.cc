#include "federation/events/event_deduplicator.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

using std::chrono::minutes;

EventRecord record(const std::string& name, const std::string& message = "m") {
  return {.object = {.kind = "ConfigMap", .namespace_name = "ns", .name = name},
          .type = EventType::kWarning,
          .reason = "R",
          .message = message};
}

const SteadyTime kStart{std::chrono::hours(1)};

// Verifies a repeat is found within the window and not after it.
TEST(EventDeduplicatorTest, FindsRepeatsWithinTheWindowOnly) {
  EventDeduplicator dedup(minutes(10), 10);
  dedup.remember(record("a"), {"a.1", "ns", 1, "t"}, kStart);
  auto found = dedup.previous(record("a"), kStart + minutes(10));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->name, "a.1");
  EXPECT_FALSE(dedup.previous(record("a"), kStart + minutes(10) + std::chrono::seconds(1)));
}

// Verifies every field of the key matters: object, type, reason and message.
TEST(EventDeduplicatorTest, DistinguishesObjectTypeReasonAndMessage) {
  EventDeduplicator dedup(minutes(10), 10);
  dedup.remember(record("a"), {"a.1", "ns", 1, "t"}, kStart);
  EXPECT_FALSE(dedup.previous(record("b"), kStart));
  EXPECT_FALSE(dedup.previous(record("a", "other"), kStart));
  EventRecord normal = record("a");
  normal.type = EventType::kNormal;
  EXPECT_FALSE(dedup.previous(normal, kStart));
  EventRecord reason = record("a");
  reason.reason = "Other";
  EXPECT_FALSE(dedup.previous(reason, kStart));
}

// Verifies the least recently seen entry goes first when over capacity.
TEST(EventDeduplicatorTest, ForgetsLeastRecentlySeenBeyondCapacity) {
  EventDeduplicator dedup(minutes(10), 2);
  dedup.remember(record("a"), {"a.1", "ns", 1, "t"}, kStart);
  dedup.remember(record("b"), {"b.1", "ns", 1, "t"}, kStart);
  dedup.remember(record("a"), {"a.1", "ns", 2, "t"}, kStart);  // "a" seen again: "b" is oldest
  dedup.remember(record("c"), {"c.1", "ns", 1, "t"}, kStart);
  EXPECT_EQ(dedup.size(), 2u);
  EXPECT_TRUE(dedup.previous(record("a"), kStart));
  EXPECT_FALSE(dedup.previous(record("b"), kStart));
  EXPECT_EQ(dedup.previous(record("a"), kStart)->count, 2);
}

}  // namespace
}  // namespace kf
