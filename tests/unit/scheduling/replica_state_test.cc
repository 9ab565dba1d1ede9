#include "federation/scheduling/replica_state.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/json.h"

namespace kf::scheduling {
namespace {

using test::parsed;
using testing::HasSubstr;

PodAnalysis pods(int running_and_ready, int unschedulable, bool needs_recheck = false) {
  return PodAnalysis{running_and_ready + unschedulable, running_and_ready, unschedulable,
                     needs_recheck};
}

ReplicaState stateOf(const std::map<std::string, WorkloadObservation>& observed) {
  auto result = replicaState(observed);
  EXPECT_TRUE(result) << result.error().message;
  return result ? result.value() : ReplicaState{};
}

// Verifies that spec.replicas and status.readyReplicas are read, 0 when absent.
TEST(ReplicaStateTest, ReadsDesiredAndReadyReplicas) {
  auto replicas =
      readWorkloadReplicas(parsed(R"({"spec": {"replicas": 3}, "status": {"readyReplicas": 2}})"));
  ASSERT_TRUE(replicas);
  EXPECT_EQ(replicas.value().desired, 3);
  EXPECT_EQ(replicas.value().ready, 2);
  EXPECT_TRUE(replicas.value().podsNeeded());

  replicas = readWorkloadReplicas(parsed(R"({"spec": {}, "status": null})"));
  ASSERT_TRUE(replicas);
  EXPECT_EQ(replicas.value().desired, 0);
  EXPECT_EQ(replicas.value().ready, 0);
  EXPECT_FALSE(replicas.value().podsNeeded());
}

// Verifies that replica counts that are not integers fail with the field named.
TEST(ReplicaStateTest, NonIntegerReplicasFail) {
  auto replicas = readWorkloadReplicas(parsed(R"({"spec": {"replicas": "3"}})"));
  ASSERT_FALSE(replicas);
  EXPECT_EQ(replicas.error().message, "spec.replicas: expected integer");
  replicas = readWorkloadReplicas(parsed(R"({"status": {"readyReplicas": 1.5}})"));
  ASSERT_FALSE(replicas);
  EXPECT_EQ(replicas.error().message, "status.readyReplicas: expected integer");
}

// Verifies that the pods to analyse are those of spec.selector.matchLabels, as a selector text.
TEST(ReplicaStateTest, PodSelectorFromMatchLabels) {
  auto labels = podMatchLabels(
      parsed(R"({"spec": {"selector": {"matchLabels": {"tier": "web", "app": "shop"}}}})"));
  ASSERT_TRUE(labels);
  EXPECT_EQ(labelSelectorText(labels.value()), "app=shop,tier=web");
  labels = podMatchLabels(parsed(R"({"spec": {"selector": {"matchLabels": {}}}})"));
  ASSERT_TRUE(labels);
  EXPECT_EQ(labelSelectorText(labels.value()), "");
}

// Verifies KubeFed's "missing selector on object", and a clear error for a malformed one.
TEST(ReplicaStateTest, MissingOrMalformedSelectorFails) {
  auto labels = podMatchLabels(parsed(
      R"({"spec": {"selector": {"matchExpressions": [{"key": "a", "operator": "Exists"}]}}})"));
  ASSERT_FALSE(labels);
  EXPECT_THAT(labels.error().message, HasSubstr("missing selector on object"));
  labels = podMatchLabels(parsed(R"({"spec": {"selector": {"matchLabels": {"app": 1}}}})"));
  ASSERT_FALSE(labels);
  EXPECT_EQ(labels.error().message, "spec.selector.matchLabels[app]: expected string");
}

// Verifies the step-4 rule: all replicas ready -> current = readyReplicas, no capacity.
TEST(ReplicaStateTest, AllReadyUsesReadyReplicas) {
  const auto state = stateOf({{"a", WorkloadObservation{{4, 4}, std::nullopt}},
                              {"b", WorkloadObservation{{0, 0}, std::nullopt}}});
  EXPECT_EQ(state.current, (ReplicaCounts{{"a", 4}, {"b", 0}}));
  EXPECT_TRUE(state.capacity.empty());
  EXPECT_FALSE(state.needs_recheck);
}

// Verifies the step-4 rule: not all ready -> current = running and ready pods, and capacity =
// desired - unschedulable only when some pods are unschedulable.
TEST(ReplicaStateTest, PodAnalysisGivesCurrentAndCapacity) {
  const auto state = stateOf({{"a", WorkloadObservation{{6, 2}, pods(2, 0)}},
                              {"b", WorkloadObservation{{6, 3}, pods(3, 2)}}});
  EXPECT_EQ(state.current, (ReplicaCounts{{"a", 2}, {"b", 3}}));
  EXPECT_EQ(state.capacity, (ReplicaCounts{{"b", 4}}));
}

// Verifies that a recheck in any analysed cluster makes the whole state a recheck.
TEST(ReplicaStateTest, AnyRecheckIsARecheck) {
  EXPECT_TRUE(stateOf({{"a", WorkloadObservation{{3, 1}, pods(1, 0, true)}},
                       {"b", WorkloadObservation{{3, 1}, pods(1, 0, false)}}})
                  .needs_recheck);
  EXPECT_FALSE(stateOf({{"a", WorkloadObservation{{3, 1}, pods(1, 1, false)}}}).needs_recheck);
}

// Verifies that more unschedulable pods than desired replicas give capacity 0, not a negative.
TEST(ReplicaStateTest, CapacityIsNeverNegative) {
  const auto state = stateOf({{"a", WorkloadObservation{{1, 0}, pods(0, 3)}}});
  EXPECT_EQ(state.capacity, (ReplicaCounts{{"a", 0}}));
}

// Verifies that an observation lacking the analysis it needs is an error, not a guess.
TEST(ReplicaStateTest, MissingPodAnalysisFails) {
  auto state = replicaState({{"a", WorkloadObservation{{3, 1}, std::nullopt}}});
  ASSERT_FALSE(state);
  EXPECT_EQ(state.error().message, "cluster \"a\": the workload's pods were not analysed");
}

}  // namespace
}  // namespace kf::scheduling
