// Ordering within a cluster: a workload's creation waits for the followers it references, for a
// bounded time; nothing else is ever deferred.

#include "sync/plan/dependency_order.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf::sync {
namespace {

using std::chrono::seconds;
using testing::ElementsAre;
using testing::IsEmpty;
using testing::Key;

const OrderingTime kStart{seconds(1000)};

ClusterStep create(const std::string& cluster) {
  return ClusterStep{.cluster = cluster, .operation = OperationKind::kCreate};
}

ClusterStep update(const std::string& cluster) {
  return ClusterStep{.cluster = cluster, .operation = OperationKind::kUpdate};
}

DependencyState missingIn(const std::string& cluster, OrderingTime now = kStart) {
  return DependencyState{.missing = {{cluster, {"ConfigMap \"cfg\""}}},
                         .waiting_since = {},
                         .now = now,
                         .max_wait = seconds(30)};
}

TEST(OrderAfterDependenciesTest, DefersTheCreationWhereAFollowerIsMissing) {
  const OrderingDecision decision =
      orderAfterDependencies({create("member1"), create("member2")}, missingIn("member1"));
  ASSERT_EQ(decision.steps.size(), 2U);
  EXPECT_EQ(decision.steps[0].operation, std::nullopt);
  EXPECT_EQ(decision.steps[0].status, PropagationStatus::kWaitingForDependencies);
  EXPECT_THAT(decision.steps[0].reason, testing::HasSubstr("ConfigMap \"cfg\""));
  EXPECT_EQ(decision.steps[1].operation, OperationKind::kCreate);
  EXPECT_THAT(decision.deferred, ElementsAre(std::pair{std::string("member1"), kStart}));
  EXPECT_THAT(decision.gave_up, IsEmpty());
}

TEST(OrderAfterDependenciesTest, NeverDefersUpdatesOrClustersWithNothingMissing) {
  DependencyState state = missingIn("member1");
  state.missing["member2"] = {};
  const OrderingDecision decision =
      orderAfterDependencies({update("member1"), create("member2")}, state);
  EXPECT_EQ(decision.steps[0].operation, OperationKind::kUpdate);
  EXPECT_EQ(decision.steps[1].operation, OperationKind::kCreate);
  EXPECT_THAT(decision.deferred, IsEmpty());
}

TEST(OrderAfterDependenciesTest, KeepsTheFirstDeferralTimeWhileWaiting) {
  DependencyState state = missingIn("member1", kStart + seconds(29));
  state.waiting_since["member1"] = kStart;
  const OrderingDecision decision = orderAfterDependencies({create("member1")}, state);
  EXPECT_THAT(decision.deferred, ElementsAre(std::pair{std::string("member1"), kStart}));
  EXPECT_EQ(decision.steps[0].operation, std::nullopt);
}

TEST(OrderAfterDependenciesTest, CreatesAnywayOnceTheWaitRanOut) {
  DependencyState state = missingIn("member1", kStart + seconds(30));
  state.waiting_since["member1"] = kStart;
  const OrderingDecision decision = orderAfterDependencies({create("member1")}, state);
  EXPECT_EQ(decision.steps[0].operation, OperationKind::kCreate);
  EXPECT_THAT(decision.deferred, IsEmpty());
  EXPECT_THAT(decision.gave_up, ElementsAre(Key("member1")));
}

}  // namespace
}  // namespace kf::sync
