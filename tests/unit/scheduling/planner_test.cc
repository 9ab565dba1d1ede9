#include "federation/scheduling/planner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "federation/scheduling/fnv.h"

namespace kf::scheduling {
namespace {

using testing::HasSubstr;
using Preferences = std::map<std::string, ClusterPreferences>;

ClusterPreferences weight(std::int64_t w) { return ClusterPreferences{.weight = w}; }

ClusterPreferences weightMax(std::int64_t w, std::int64_t max) {
  return ClusterPreferences{.max_replicas = max, .weight = w};
}

ClusterPreferences minWeight(std::int64_t min, std::int64_t w) {
  return ClusterPreferences{.min_replicas = min, .weight = w};
}

ReplicaSchedulingPreferenceSpec spec(Preferences clusters, std::int32_t total,
                                     bool rebalance = false) {
  ReplicaSchedulingPreferenceSpec out;
  out.target_kind = "FederatedDeployment";
  out.total_replicas = total;
  out.rebalance = rebalance;
  out.clusters = std::move(clusters);
  return out;
}

// KubeFed's planner tests call Plan with the key "".
ReplicaPlan plan(const ReplicaSchedulingPreferenceSpec& preferences,
                 const std::vector<std::string>& clusters, const ReplicaCounts& current = {},
                 const ReplicaCounts& capacity = {}) {
  auto result = planReplicas(preferences, clusters, current, capacity, "");
  EXPECT_TRUE(result) << result.error().message;
  return result ? result.value() : ReplicaPlan{};
}

ReplicaCounts replicas(const ReplicaSchedulingPreferenceSpec& preferences,
                       const std::vector<std::string>& clusters,
                       const ReplicaCounts& current = {}) {
  auto out = plan(preferences, clusters, current);
  EXPECT_TRUE(out.overflow.empty()) << "no capacity given, so no overflow";
  return out.replicas;
}

const std::vector<std::string> kAB = {"A", "B"};
const std::vector<std::string> kABC = {"A", "B", "C"};
const std::vector<std::string> kABCD = {"A", "B", "C", "D"};

// Verifies KubeFed's equal-weight vectors, including the hash-dependent ones.
TEST(PlannerTest, EqualWeights) {
  const auto equal = spec({{"*", weight(1)}}, 50);
  EXPECT_EQ(replicas(equal, kABC), (ReplicaCounts{{"A", 16}, {"B", 17}, {"C", 17}}));
  EXPECT_EQ(replicas(equal, kAB), (ReplicaCounts{{"A", 25}, {"B", 25}}));
  const auto one = spec({{"*", weight(1)}}, 1);
  EXPECT_EQ(replicas(one, kAB), (ReplicaCounts{{"A", 0}, {"B", 1}}));
  EXPECT_EQ(replicas(one, kABCD), (ReplicaCounts{{"A", 0}, {"B", 0}, {"C", 0}, {"D", 1}}));
  EXPECT_EQ(replicas(one, {"A"}), (ReplicaCounts{{"A", 1}}));
  EXPECT_EQ(replicas(one, {}), ReplicaCounts{});
}

// Verifies KubeFed's vectors with replicas already running and rebalance off.
TEST(PlannerTest, EqualWeightsWithExistingReplicas) {
  const auto fifty = spec({{"*", weight(1)}}, 50);
  EXPECT_EQ(replicas(fifty, kABC, {{"C", 30}}), (ReplicaCounts{{"A", 10}, {"B", 10}, {"C", 30}}));
  EXPECT_EQ(replicas(fifty, kAB, {{"A", 30}}), (ReplicaCounts{{"A", 30}, {"B", 20}}));
  const auto fifteen = spec({{"*", weight(1)}}, 15);
  for (std::int64_t a : {0, 1, 4, 5, 6, 7}) {
    EXPECT_EQ(replicas(fifteen, kAB, {{"A", a}, {"B", 8}}), (ReplicaCounts{{"A", 7}, {"B", 8}}))
        << "A running " << a;
  }
  EXPECT_EQ(replicas(spec({{"*", weight(1)}}, 500000), kAB, {{"A", 300000}}),
            (ReplicaCounts{{"A", 300000}, {"B", 200000}}));
  EXPECT_EQ(replicas(fifty, kAB, {{"A", 10}}), (ReplicaCounts{{"A", 25}, {"B", 25}}));
  // KubeFed's known imperfection (its TODO says 10:40 would be better).
  EXPECT_EQ(replicas(fifty, kAB, {{"A", 10}, {"B", 70}}), (ReplicaCounts{{"A", 0}, {"B", 50}}));
  EXPECT_EQ(replicas(spec({{"*", weight(1)}}, 1), kAB, {{"A", 30}}),
            (ReplicaCounts{{"A", 1}, {"B", 0}}));
  EXPECT_EQ(replicas(fifty, kAB, {{"A", 10}, {"B", 20}}), (ReplicaCounts{{"A", 25}, {"B", 25}}));
}

// Verifies KubeFed's vectors with estimated capacity, with and without rebalance.
TEST(PlannerTest, EstimatedCapacityOverflows) {
  auto out = plan(spec({{"*", weight(1)}}, 50, true), kABC, {}, {{"C", 10}});
  EXPECT_EQ(out.replicas, (ReplicaCounts{{"A", 20}, {"B", 20}, {"C", 10}}));
  EXPECT_EQ(out.overflow, (ReplicaCounts{{"C", 7}}));

  out = plan(spec({{"A", weight(10000)}, {"B", weight(1)}}, 50, true), {"B", "C"}, {}, {{"B", 10}});
  EXPECT_EQ(out.replicas, (ReplicaCounts{{"B", 10}, {"C", 0}}));
  EXPECT_EQ(out.overflow, (ReplicaCounts{{"B", 40}}));

  out = plan(spec({{"A", weight(1)}, {"B", weight(2)}}, 60, true), kABC, {}, {{"B", 10}});
  EXPECT_EQ(out.replicas, (ReplicaCounts{{"A", 50}, {"B", 10}, {"C", 0}}));
  EXPECT_EQ(out.overflow, (ReplicaCounts{{"B", 30}}));

  out = plan(spec({{"A", weightMax(10000, 10)},
                   {"B", weight(1)},
                   {"C", weightMax(1, 21)},
                   {"D", weightMax(1, 10)}},
                  71, true),
             kABCD, {}, {{"C", 10}});
  EXPECT_EQ(out.replicas, (ReplicaCounts{{"A", 10}, {"B", 41}, {"C", 10}, {"D", 10}}));
  EXPECT_EQ(out.overflow, (ReplicaCounts{{"C", 11}}));

  out = plan(spec({{"A", weight(1)}, {"B", weight(1)}}, 60), kABC, {}, {{"A", 10}, {"B", 10}});
  EXPECT_EQ(out.replicas, (ReplicaCounts{{"A", 10}, {"B", 10}, {"C", 0}}));
  EXPECT_EQ(out.overflow, (ReplicaCounts{{"A", 20}, {"B", 20}}));

  out = plan(spec({{"A", weight(1)}, {"B", weight(5)}}, 60), kABC, {}, {{"B", 10}});
  EXPECT_EQ(out.replicas, (ReplicaCounts{{"A", 50}, {"B", 10}, {"C", 0}}));
  EXPECT_EQ(out.overflow, ReplicaCounts{});

  out = plan(spec({{"*", minWeight(20, 0)}}, 50), kABC, {}, {{"B", 10}});
  EXPECT_EQ(out.replicas, (ReplicaCounts{{"A", 20}, {"B", 10}, {"C", 20}}));
  EXPECT_EQ(out.overflow, ReplicaCounts{});

  out = plan(spec({{"*", minWeight(20, 1)}}, 60, true), kAB, {}, {{"B", 10}});
  EXPECT_EQ(out.replicas, (ReplicaCounts{{"A", 50}, {"B", 10}}));
  EXPECT_EQ(out.overflow, (ReplicaCounts{{"B", 15}}));
}

// Verifies KubeFed's minReplicas vectors (the minimum pass ignores maxReplicas).
TEST(PlannerTest, MinimumReplicas) {
  EXPECT_EQ(replicas(spec({{"*", minWeight(2, 0)}}, 50), kABC),
            (ReplicaCounts{{"A", 2}, {"B", 2}, {"C", 2}}));
  EXPECT_EQ(replicas(spec({{"*", minWeight(20, 0)}}, 50), kABC),
            (ReplicaCounts{{"A", 10}, {"B", 20}, {"C", 20}}));
  EXPECT_EQ(replicas(spec({{"*", minWeight(20, 0)}, {"A", minWeight(100, 1)}}, 50), kABC),
            (ReplicaCounts{{"A", 50}, {"B", 0}, {"C", 0}}));
  const ClusterPreferences min10max12{.min_replicas = 10, .max_replicas = 12, .weight = 1};
  EXPECT_EQ(replicas(spec({{"*", min10max12}}, 50), kABC),
            (ReplicaCounts{{"A", 12}, {"B", 12}, {"C", 12}}));
}

// Verifies KubeFed's maxReplicas vectors.
TEST(PlannerTest, MaximumReplicas) {
  EXPECT_EQ(replicas(spec({{"*", weightMax(1, 2)}}, 50), kABC),
            (ReplicaCounts{{"A", 2}, {"B", 2}, {"C", 2}}));
  EXPECT_EQ(replicas(spec({{"*", weightMax(0, 2)}}, 50), kABC),
            (ReplicaCounts{{"A", 0}, {"B", 0}, {"C", 0}}));
}

// Verifies KubeFed's weight vectors, clusters without a preference getting 0.
TEST(PlannerTest, Weights) {
  EXPECT_EQ(replicas(spec({{"A", weight(1)}, {"B", weight(2)}}, 60), kABC),
            (ReplicaCounts{{"A", 20}, {"B", 40}, {"C", 0}}));
  EXPECT_EQ(replicas(spec({{"A", weight(10000)}, {"B", weight(1)}}, 50), kABC),
            (ReplicaCounts{{"A", 50}, {"B", 0}, {"C", 0}}));
  EXPECT_EQ(replicas(spec({{"A", weight(10000)}, {"B", weight(1)}}, 50), {"B", "C"}),
            (ReplicaCounts{{"B", 50}, {"C", 0}}));
  EXPECT_EQ(
      replicas(spec({{"A", weightMax(10000, 10)}, {"B", weight(1)}, {"C", weight(1)}}, 50), kABC),
      (ReplicaCounts{{"A", 10}, {"B", 20}, {"C", 20}}));
  EXPECT_EQ(
      replicas(spec({{"A", weightMax(10000, 10)}, {"B", weight(1)}, {"C", weightMax(1, 10)}}, 50),
               kABC),
      (ReplicaCounts{{"A", 10}, {"B", 30}, {"C", 10}}));
  const Preferences four = {{"A", weightMax(10000, 10)},
                            {"B", weight(1)},
                            {"C", weightMax(1, 21)},
                            {"D", weightMax(1, 10)}};
  EXPECT_EQ(replicas(spec(four, 71), kABCD),
            (ReplicaCounts{{"A", 10}, {"B", 30}, {"C", 21}, {"D", 10}}));
  Preferences five = four;
  five["E"] = weight(1);
  EXPECT_EQ(replicas(spec(five, 91), {"A", "B", "C", "D", "E"}),
            (ReplicaCounts{{"A", 10}, {"B", 25}, {"C", 21}, {"D", 10}, {"E", 25}}));
}

// Verifies that the key takes part in the tie-break: another key can reverse the order of two
// equally weighted clusters, and the order always follows FNV-1 of name + key.
TEST(PlannerTest, KeyTakesPartInTieBreak) {
  const auto one = spec({{"*", weight(1)}}, 1);
  int a_first = 0;
  int b_first = 0;
  for (int i = 0; i < 64; ++i) {
    const std::string key = "ns/rsp-" + std::to_string(i);
    auto result = planReplicas(one, kAB, {}, {}, key);
    ASSERT_TRUE(result);
    const bool a_wins = result.value().replicas.at("A") == 1;
    // The single replica goes to the cluster whose hash of name + key is smaller.
    EXPECT_EQ(a_wins, fnv1Hash32(key, fnv1Hash32("A")) < fnv1Hash32(key, fnv1Hash32("B"))) << key;
    (a_wins ? a_first : b_first)++;
  }
  EXPECT_GT(a_first, 0);
  EXPECT_GT(b_first, 0);
}

// Verifies that rebalance moves running replicas where rebalance off keeps them.
TEST(PlannerTest, RebalanceIgnoresRunningReplicas) {
  EXPECT_EQ(plan(spec({{"*", weight(1)}}, 50, true), kAB, {{"A", 30}}).replicas,
            (ReplicaCounts{{"A", 25}, {"B", 25}}));
  EXPECT_EQ(plan(spec({{"*", weight(1)}}, 50, false), kAB, {{"A", 30}}).replicas,
            (ReplicaCounts{{"A", 30}, {"B", 20}}));
}

// Verifies that running replicas are only pre-allocated up to maxReplicas and capacity.
TEST(PlannerTest, PreallocationIsCapped) {
  EXPECT_EQ(plan(spec({{"A", weightMax(1, 12)}, {"B", weight(1)}}, 50), kAB, {{"A", 40}}).replicas,
            (ReplicaCounts{{"A", 12}, {"B", 38}}));
  auto out = plan(spec({{"*", weight(1)}}, 50), kAB, {{"A", 40}}, {{"A", 15}});
  EXPECT_EQ(out.replicas, (ReplicaCounts{{"A", 15}, {"B", 35}}));
  EXPECT_EQ(out.overflow, ReplicaCounts{});
}

// Verifies that a maxReplicas below the minimum hands the difference back to other clusters.
TEST(PlannerTest, MaxBelowMinHandsReplicasBack) {
  const ClusterPreferences a{.min_replicas = 20, .max_replicas = 5, .weight = 1};
  EXPECT_EQ(plan(spec({{"A", a}, {"B", weight(1)}}, 30, true), kAB).replicas,
            (ReplicaCounts{{"A", 5}, {"B", 25}}));
}

// Verifies that totalReplicas 0 plans 0 everywhere.
TEST(PlannerTest, ZeroTotalPlansZero) {
  EXPECT_EQ(replicas(spec({{"*", minWeight(3, 1)}}, 0), kAB), (ReplicaCounts{{"A", 0}, {"B", 0}}));
}

// Verifies that weights near the int64 limit neither overflow nor lose the proportions.
TEST(PlannerTest, HugeWeightsDoNotOverflow) {
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max() / 2;
  EXPECT_EQ(replicas(spec({{"A", weight(huge)}, {"B", weight(huge)}}, 2147483647), kAB),
            (ReplicaCounts{{"A", 1073741823}, {"B", 1073741824}}));
}

// Verifies that negative counts and weights are refused with the field that holds them.
TEST(PlannerTest, NegativeValuesAreRefused) {
  auto result = planReplicas(spec({{"A", weight(-1)}}, 5), kAB, {}, {}, "ns/x");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            "spec.clusters[A].weight: Invalid value: -1: must be greater than or equal to 0");

  result =
      planReplicas(spec({{"*", ClusterPreferences{.min_replicas = -2, .max_replicas = -3}}}, -4),
                   kAB, {}, {}, "ns/x");
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message, HasSubstr("spec.totalReplicas: Invalid value: -4"));
  EXPECT_THAT(result.error().message, HasSubstr("spec.clusters[*].minReplicas: Invalid value: -2"));
  EXPECT_THAT(result.error().message, HasSubstr("spec.clusters[*].maxReplicas: Invalid value: -3"));

  result = planReplicas(spec({{"*", weight(1)}}, 5), kAB, {}, {{"B", -1}}, "ns/x");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "estimated capacity of cluster \"B\" is negative: -1");
}

}  // namespace
}  // namespace kf::scheduling
