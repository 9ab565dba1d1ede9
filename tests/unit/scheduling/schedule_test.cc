#include "federation/scheduling/schedule.h"

#include <gtest/gtest.h>

namespace kf::scheduling {
namespace {

ReplicaSchedulingPreferenceSpec rsp(std::int32_t total,
                                    std::map<std::string, ClusterPreferences> clusters = {},
                                    bool rebalance = false) {
  ReplicaSchedulingPreferenceSpec out;
  out.target_kind = "FederatedDeployment";
  out.total_replicas = total;
  out.rebalance = rebalance;
  out.clusters = std::move(clusters);
  return out;
}

ReplicaCounts scheduled(const ReplicaSchedulingPreferenceSpec& spec,
                        const std::vector<std::string>& candidates, const ReplicaState& state = {},
                        std::string_view key = "shop/web") {
  auto result = scheduleReplicas(spec, candidates, state, key);
  EXPECT_TRUE(result) << result.error().message;
  return result ? result.value() : ReplicaCounts{};
}

// Verifies step 5: no cluster entries means {"*": {weight: 1}}; entries are kept as they are.
TEST(ScheduleTest, DefaultPreferencesSpreadEvenly) {
  const auto defaulted = withDefaultPreferences(rsp(9));
  ASSERT_EQ(defaulted.clusters.size(), 1u);
  const auto& all = defaulted.clusters.at("*");
  EXPECT_EQ(all.weight, 1);
  EXPECT_EQ(all.min_replicas, 0);
  EXPECT_FALSE(all.max_replicas);

  const auto kept = withDefaultPreferences(rsp(9, {{"a", ClusterPreferences{.weight = 3}}}));
  ASSERT_EQ(kept.clusters.size(), 1u);
  EXPECT_EQ(kept.clusters.at("a").weight, 3);

  const auto even = scheduled(rsp(10), {"m1", "m2"});
  EXPECT_EQ(even, (ReplicaCounts{{"m1", 5}, {"m2", 5}}));
}

// Verifies the acceptance case: 9 over two members weighted 1:2 is 3 and 6.
TEST(ScheduleTest, NineOverTwoMembersWeightedOneToTwo) {
  EXPECT_EQ(scheduled(rsp(9, {{"member1", ClusterPreferences{.weight = 1}},
                              {"member2", ClusterPreferences{.weight = 2}}}),
                      {"member1", "member2"}),
            (ReplicaCounts{{"member1", 3}, {"member2", 6}}));
}

// Verifies step 7: every candidate is in the result, those planned 0 included.
TEST(ScheduleTest, CandidatesPlannedZeroAreInTheResult) {
  EXPECT_EQ(scheduled(rsp(6, {{"a", ClusterPreferences{.weight = 1}}}), {"a", "b", "c"}),
            (ReplicaCounts{{"a", 6}, {"b", 0}, {"c", 0}}));
}

// Verifies step 7: a cluster running the workload gets an entry (0 unless planned).
TEST(ScheduleTest, ClustersRunningTheWorkloadAreInTheResult) {
  ReplicaState state;
  state.current = {{"a", 2}, {"old", 4}};
  EXPECT_EQ(scheduled(rsp(6, {}, true), {"a", "b"}, state),
            (ReplicaCounts{{"a", 3}, {"b", 3}, {"old", 0}}));
}

// Verifies step 7: overflow is added to the plan of its cluster.
TEST(ScheduleTest, OverflowIsAddedToThePlan) {
  ReplicaState state;
  state.capacity = {{"C", 10}};
  // The planner's own vector: plan A20 B20 C10, overflow C7 (key "").
  EXPECT_EQ(scheduled(rsp(50, {{"*", ClusterPreferences{.weight = 1}}}, true), {"A", "B", "C"},
                      state, ""),
            (ReplicaCounts{{"A", 20}, {"B", 20}, {"C", 17}}));
}

// Verifies that replicas stuck behind unschedulable pods move: current and capacity from pod
// analysis feed the planner, without rebalance the running replicas stay.
TEST(ScheduleTest, UnschedulableCapacityMovesReplicas) {
  ReplicaState state;
  state.current = {{"m1", 1}, {"m2", 3}};
  state.capacity = {{"m1", 1}};  // 3 desired, 2 unschedulable for long
  EXPECT_EQ(scheduled(rsp(6), {"m1", "m2"}, state), (ReplicaCounts{{"m1", 1}, {"m2", 5}}));
}

// Verifies that the planner's refusal of bad preferences reaches the caller.
TEST(ScheduleTest, InvalidPreferencesFail) {
  auto result = scheduleReplicas(rsp(-1), {"a"}, {}, "shop/web");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            "spec.totalReplicas: Invalid value: -1: must be greater than or equal to 0");
}

}  // namespace
}  // namespace kf::scheduling
