// The sync reconcile's decisions, table-tested: for each state a member cluster can be in, what
// planPropagation, planDeletion and planRelease decide for it.

#include "sync/plan/sync_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sync/plan/managed_label.h"

namespace kf::sync {
namespace {

using testing::ElementsAre;
using testing::IsEmpty;

// What a member cluster is in, as the reconcile observed it.
enum class Seen {
  kUnready,
  kCacheError,
  kAbsent,        // ready, the cache holds no object
  kPresent,       // ready, a managed object
  kUnmanaged,     // ready, an object without the managed label
  kBeingDeleted,  // ready, a managed object with a deletionTimestamp
  kHostNamespace,
  kHostNamespaceBeingDeleted,
};

ObjectPtr memberObject(bool managed, bool being_deleted) {
  Json object = {{"metadata", {{"name", "x"}, {"namespace", "ns"}, {"uid", "u1"}}},
                 {"status", {{"phase", "Active"}}}};
  if (managed) object["metadata"]["labels"] = {{std::string(kManagedLabel), "true"}};
  if (being_deleted) object["metadata"]["deletionTimestamp"] = "2024-01-01T00:00:00Z";
  return makeObject(std::move(object));
}

ClusterObservation observed(const std::string& name, Seen seen) {
  ClusterObservation out{.name = name, .ready = seen != Seen::kUnready};
  switch (seen) {
    case Seen::kUnready:
    case Seen::kAbsent:
      break;
    case Seen::kCacheError:
      out.cache_error = "no informer";
      break;
    case Seen::kPresent:
      out.object = memberObject(true, false);
      break;
    case Seen::kUnmanaged:
      out.object = memberObject(false, false);
      break;
    case Seen::kBeingDeleted:
      out.object = memberObject(true, true);
      break;
    case Seen::kHostNamespace:
    case Seen::kHostNamespaceBeingDeleted:
      out.object = memberObject(true, seen == Seen::kHostNamespaceBeingDeleted);
      out.host_namespace = true;
      break;
  }
  return out;
}

// One step's decision: an operation, a status, or nothing.
struct Decision {
  std::optional<OperationKind> operation;
  std::optional<PropagationStatus> status;
  bool operator==(const Decision&) const = default;
};
const Decision kNothing{};
Decision operation(OperationKind kind) { return {kind, std::nullopt}; }
Decision statusOf(PropagationStatus s) { return {std::nullopt, s}; }

// The decision for the one cluster "c" of `steps`; kNothing without a step.
Decision decisionIn(const std::vector<ClusterStep>& steps) {
  EXPECT_LE(steps.size(), 1U);
  if (steps.empty()) return kNothing;
  EXPECT_EQ(steps[0].cluster, "c");
  EXPECT_FALSE(steps[0].reason.empty());
  EXPECT_NE(steps[0].operation.has_value(), steps[0].status.has_value());
  return {steps[0].operation, steps[0].status};
}

struct Row {
  Seen seen;
  bool placed;
  Decision propagation;
  Decision deletion;
  int remaining;  // what planDeletion counts as still present
  bool blocks;    // planDeletion reports the cluster as unready or unreadable
  Decision release;
};

using OK = OperationKind;
using PS = PropagationStatus;

// clang-format off
const Row kRows[] = {
  // seen                        placed  propagation                   deletion                     rem blocks release
  {Seen::kUnready,               true,  statusOf(PS::kClusterNotReady), kNothing,                     0, true,  kNothing},
  {Seen::kUnready,               false, kNothing,                     kNothing,                     0, true,  kNothing},
  {Seen::kCacheError,            true,  statusOf(PS::kCachedRetrievalFailed), kNothing,               0, true,  kNothing},
  {Seen::kCacheError,            false, statusOf(PS::kCachedRetrievalFailed), kNothing,               0, true,  kNothing},
  {Seen::kAbsent,                true,  operation(OK::kCreate),              kNothing,                     0, false, kNothing},
  {Seen::kAbsent,                false, kNothing,                     kNothing,                     0, false, kNothing},
  {Seen::kPresent,               true,  operation(OK::kUpdate),              operation(OK::kDelete),              1, false, operation(OK::kRemoveManagedLabel)},
  {Seen::kPresent,               false, operation(OK::kDelete),              operation(OK::kDelete),              1, false, operation(OK::kRemoveManagedLabel)},
  {Seen::kUnmanaged,             true,  operation(OK::kUpdate),              operation(OK::kDelete),              1, false, kNothing},
  {Seen::kBeingDeleted,          true,  operation(OK::kUpdate),              kNothing,                     1, false, kNothing},
  {Seen::kBeingDeleted,          false, statusOf(PS::kWaitingForRemoval), kNothing,                   1, false, kNothing},
  {Seen::kHostNamespace,         true,  operation(OK::kUpdate),              operation(OK::kRemoveManagedLabel),  1, false, operation(OK::kRemoveManagedLabel)},
  {Seen::kHostNamespace,         false, operation(OK::kRemoveManagedLabel),  operation(OK::kRemoveManagedLabel),  1, false, operation(OK::kRemoveManagedLabel)},
  {Seen::kHostNamespaceBeingDeleted, false, statusOf(PS::kWaitingForRemoval), kNothing,               0, false, kNothing},
};
// clang-format on

class SyncPlanTableTest : public testing::TestWithParam<Row> {};

// Verifies planPropagation's decision for each observed state, placed or not.
TEST_P(SyncPlanTableTest, PropagationDecidesPerCluster) {
  const Row& row = GetParam();
  SyncObservation observation{.clusters = {observed("c", row.seen)}};
  if (row.placed) observation.placement = {"c"};
  EXPECT_EQ(decisionIn(planPropagation(observation)), row.propagation);
}

// Verifies planDeletion's decision, what it counts as remaining and what blocks the deletion;
// placement plays no part.
TEST_P(SyncPlanTableTest, DeletionDecidesPerCluster) {
  const Row& row = GetParam();
  SyncObservation observation{.clusters = {observed("c", row.seen)}};
  if (row.placed) observation.placement = {"c"};
  const DeletionPlan plan = planDeletion(observation);
  EXPECT_EQ(decisionIn(plan.steps), row.deletion);
  EXPECT_EQ(plan.remaining, row.remaining);
  EXPECT_EQ(plan.unready.size() + plan.cache_errors.size(), row.blocks ? 1U : 0U);
}

// Verifies planRelease unlabels exactly the managed objects not being deleted.
TEST_P(SyncPlanTableTest, ReleaseDecidesPerCluster) {
  const Row& row = GetParam();
  SyncObservation observation{.clusters = {observed("c", row.seen)}};
  EXPECT_EQ(decisionIn(planRelease(observation)), row.release);
}

INSTANTIATE_TEST_SUITE_P(EveryObservedState, SyncPlanTableTest, testing::ValuesIn(kRows));

// Verifies the steps follow the registry's order, each carrying the cached object it concerns,
// and that a placed name no known cluster has gets no step (KubeFed ignores it).
TEST(SyncPlanTest, ClustersInRegistryOrderAndUnknownPlacedNamesIgnored) {
  SyncObservation observation{
      .clusters = {observed("b", Seen::kPresent), observed("a", Seen::kAbsent),
                   observed("z", Seen::kUnready)},
      .placement = {"a", "b", "typo", "z"}};
  const auto steps = planPropagation(observation);
  ASSERT_EQ(steps.size(), 3U);
  EXPECT_EQ(steps[0].cluster, "b");
  EXPECT_EQ(steps[0].operation, OK::kUpdate);
  EXPECT_EQ(steps[0].object, observation.clusters[0].object);
  EXPECT_EQ(steps[1].cluster, "a");
  EXPECT_EQ(steps[1].operation, OK::kCreate);
  EXPECT_EQ(steps[2].cluster, "z");
  EXPECT_EQ(steps[2].status, PS::kClusterNotReady);
}

// Verifies the cache error's text reaches the step's reason (the CachedRetrievalFailed event's
// message) and the deletion plan's errors.
TEST(SyncPlanTest, CacheErrorsSayWhy) {
  SyncObservation observation{.clusters = {observed("c", Seen::kCacheError)}, .placement = {"c"}};
  const auto steps = planPropagation(observation);
  ASSERT_EQ(steps.size(), 1U);
  EXPECT_EQ(steps[0].reason, "Failed to retrieve cached cluster object: no informer");
  EXPECT_THAT(planDeletion(observation).cache_errors, ElementsAre("c: no informer"));
}

// Verifies a deletion with nothing left in any cluster has no steps and nothing remaining.
TEST(SyncPlanTest, NothingLeftMeansDeletionIsDone) {
  SyncObservation observation{
      .clusters = {observed("a", Seen::kAbsent), observed("b", Seen::kHostNamespaceBeingDeleted)}};
  const DeletionPlan plan = planDeletion(observation);
  EXPECT_THAT(plan.steps, IsEmpty());
  EXPECT_EQ(plan.remaining, 0);
  EXPECT_THAT(plan.unready, IsEmpty());
}

}  // namespace
}  // namespace kf::sync
