#include "federation/scheduling/capacity_memory.h"

#include <gtest/gtest.h>

namespace kf::scheduling {
namespace {

using std::chrono::seconds;
using TimePoint = CapacityMemory::TimePoint;

ReplicaState observed(ReplicaCounts current, ReplicaCounts capacity = {}) {
  return ReplicaState{.current = std::move(current), .capacity = std::move(capacity)};
}

class CapacityMemoryTest : public ::testing::Test {
 protected:
  ReplicaState recall(ReplicaState state, seconds since_start, const std::string& key = "ns/web") {
    return memory_.recall(key, std::move(state), start_ + since_start);
  }

  CapacityMemory memory_;
  const TimePoint start_{std::chrono::hours(1)};
};

// Verifies the case it exists for: B's pods could not be scheduled (capacity 0), its replicas
// were moved, and it has no pods left to show its limit; the estimate still holds.
TEST_F(CapacityMemoryTest, AnEstimateOutlivesThePodsThatRevealedIt) {
  const ReplicaState first = recall(observed({{"A", 2}, {"B", 0}}, {{"B", 0}}), seconds(0));
  EXPECT_EQ(first.capacity, (ReplicaCounts{{"B", 0}}));
  EXPECT_TRUE(first.needs_recheck) << "the lapse must be looked at";

  const ReplicaState moved = recall(observed({{"A", 2}, {"B", 0}}), seconds(1));
  EXPECT_EQ(moved.capacity, (ReplicaCounts{{"B", 0}}));
  EXPECT_TRUE(moved.needs_recheck);
}

// Verifies that a remembered estimate lapses kCapacityHold after it was last seen, and that
// seeing it again restarts the hold.
TEST_F(CapacityMemoryTest, AnEstimateLapsesAfterTheHoldSinceItWasLastSeen) {
  const seconds hold = kCapacityHold;
  recall(observed({{"B", 0}}, {{"B", 1}}), seconds(0));
  recall(observed({{"B", 0}}, {{"B", 1}}), seconds(30));  // seen again
  EXPECT_EQ(recall(observed({{"B", 0}}), hold).capacity, (ReplicaCounts{{"B", 1}}));

  const ReplicaState lapsed = recall(observed({{"B", 0}}), seconds(30) + hold);
  EXPECT_TRUE(lapsed.capacity.empty());
  EXPECT_FALSE(lapsed.needs_recheck);
  EXPECT_TRUE(recall(observed({{"B", 0}}), seconds(31) + hold).capacity.empty()) << "forgotten";
}

// Verifies that a cluster running more ready replicas than its remembered capacity drops it.
TEST_F(CapacityMemoryTest, RunningMoreThanTheEstimateDropsIt) {
  recall(observed({{"B", 1}}, {{"B", 1}}), seconds(0));
  EXPECT_EQ(recall(observed({{"B", 1}}), seconds(1)).capacity, (ReplicaCounts{{"B", 1}}));
  const ReplicaState grown = recall(observed({{"B", 3}}), seconds(2));
  EXPECT_TRUE(grown.capacity.empty());
  EXPECT_FALSE(grown.needs_recheck);
  EXPECT_TRUE(recall(observed({{"B", 0}}), seconds(3)).capacity.empty());
}

// Verifies that this pass's own estimate wins over the remembered one and replaces it.
TEST_F(CapacityMemoryTest, AFreshEstimateReplacesTheRememberedOne) {
  recall(observed({{"B", 0}}, {{"B", 0}}), seconds(0));
  EXPECT_EQ(recall(observed({{"B", 0}}, {{"B", 2}}), seconds(1)).capacity,
            (ReplicaCounts{{"B", 2}}));
  EXPECT_EQ(recall(observed({{"B", 0}}), seconds(2)).capacity, (ReplicaCounts{{"B", 2}}));
}

// Verifies that RSPs do not share estimates, and that a forgotten RSP starts over.
TEST_F(CapacityMemoryTest, EachRspHasItsOwnMemory) {
  recall(observed({{"B", 0}}, {{"B", 0}}), seconds(0), "ns/web");
  EXPECT_TRUE(recall(observed({{"B", 0}}), seconds(1), "ns/api").capacity.empty());
  memory_.forget("ns/web");
  const ReplicaState after = recall(observed({{"B", 0}}), seconds(2), "ns/web");
  EXPECT_TRUE(after.capacity.empty());
  EXPECT_FALSE(after.needs_recheck);
}

// Verifies that without unschedulable pods nothing changes (KubeFed's behaviour): the state is
// returned as observed, a recheck it asked for kept.
TEST_F(CapacityMemoryTest, NothingRememberedLeavesTheStateAsObserved) {
  ReplicaState state = observed({{"A", 3}, {"B", 2}});
  state.needs_recheck = true;
  const ReplicaState out = recall(state, seconds(0));
  EXPECT_EQ(out.current, state.current);
  EXPECT_TRUE(out.capacity.empty());
  EXPECT_TRUE(out.needs_recheck);
  EXPECT_FALSE(recall(observed({{"A", 3}}), seconds(1)).needs_recheck);
}

}  // namespace
}  // namespace kf::scheduling
