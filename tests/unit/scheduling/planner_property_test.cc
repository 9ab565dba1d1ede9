#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "federation/scheduling/planner.h"

namespace kf::scheduling {
namespace {

constexpr int kCases = 4000;
constexpr std::uint64_t kSeed = 20261125;

struct PlannerCase {
  ReplicaSchedulingPreferenceSpec spec;
  std::vector<std::string> clusters;
  ReplicaCounts current;
  ReplicaCounts capacity;
  std::string key;
};

// What a random case may contain.
struct CaseShape {
  bool minimums = true;
  bool maximums = true;
  bool running = true;
  bool capacity = true;
};

class CaseGenerator {
 public:
  explicit CaseGenerator(std::uint64_t seed) : rng_(seed) {}

  std::int64_t between(std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(rng_);
  }
  bool chance(int percent) { return between(1, 100) <= percent; }

  // Preferences with minReplicas <= maxReplicas, so that both can be respected.
  ClusterPreferences preferences(const CaseShape& shape) {
    ClusterPreferences out;
    out.weight = chance(10) ? 0 : (chance(10) ? between(1000, 100000) : between(1, 6));
    if (shape.minimums && chance(40)) out.min_replicas = between(0, 15);
    if (shape.maximums && chance(40)) out.max_replicas = out.min_replicas + between(0, 30);
    return out;
  }

  PlannerCase next(const CaseShape& shape) {
    PlannerCase out;
    out.key = "ns" + std::to_string(between(0, 9)) + "/app-" + std::to_string(between(0, 999));
    out.spec.target_kind = "FederatedDeployment";
    out.spec.total_replicas = static_cast<std::int32_t>(between(0, chance(10) ? 100000 : 120));
    out.spec.rebalance = chance(50);
    const auto count = between(1, 8);
    for (std::int64_t i = 0; i < count; ++i) {
      const std::string name = "cluster-" + std::to_string(i);
      out.clusters.push_back(name);
      if (chance(50)) out.spec.clusters[name] = preferences(shape);
      if (shape.running && chance(40)) out.current[name] = between(0, 80);
      if (shape.capacity && chance(25)) out.capacity[name] = between(0, 40);
    }
    if (chance(70)) out.spec.clusters[std::string(kAllClusters)] = preferences(shape);
    return out;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

ReplicaPlan planned(const PlannerCase& c) {
  auto result = planReplicas(c.spec, c.clusters, c.current, c.capacity, c.key);
  EXPECT_TRUE(result) << result.error().message;
  return result ? result.value() : ReplicaPlan{};
}

// The preferences that apply to `cluster`, or nullptr when it has none.
const ClusterPreferences* preferencesOf(const PlannerCase& c, const std::string& cluster) {
  for (const auto& name : {cluster, std::string(kAllClusters)}) {
    auto it = c.spec.clusters.find(name);
    if (it != c.spec.clusters.end()) return &it->second;
  }
  return nullptr;
}

std::int64_t sumOf(const ReplicaCounts& counts) {
  return std::accumulate(counts.begin(), counts.end(), std::int64_t{0},
                         [](std::int64_t sum, const auto& entry) { return sum + entry.second; });
}

// The lowest of maxReplicas and capacity, if either is set.
std::optional<std::int64_t> limitOf(const PlannerCase& c, const std::string& cluster) {
  std::optional<std::int64_t> limit;
  if (const auto* preferences = preferencesOf(c, cluster)) limit = preferences->max_replicas;
  if (auto it = c.capacity.find(cluster); it != c.capacity.end()) {
    limit = limit ? std::min(*limit, it->second) : it->second;
  }
  return limit;
}

std::string describe(const PlannerCase& c, const ReplicaPlan& plan) {
  std::string out = "key " + c.key + " total " + std::to_string(c.spec.total_replicas) +
                    (c.spec.rebalance ? " rebalance" : "") + "\n";
  for (const auto& name : c.clusters) {
    out += name + ": planned " +
           std::to_string(plan.replicas.count(name) ? plan.replicas.at(name) : -1);
    if (const auto* p = preferencesOf(c, name)) {
      out += " min " + std::to_string(p->min_replicas) + " weight " + std::to_string(p->weight);
      if (p->max_replicas) out += " max " + std::to_string(*p->max_replicas);
    }
    if (c.current.count(name)) out += " running " + std::to_string(c.current.at(name));
    if (c.capacity.count(name)) out += " capacity " + std::to_string(c.capacity.at(name));
    out += "\n";
  }
  return out;
}

// Verifies over random inputs that every candidate is planned, that the plan never exceeds the
// total, and that it falls short only when every cluster that takes weighted replicas is held
// at its maxReplicas or capacity.
TEST(PlannerPropertyTest, PlacesTheTotalUnlessEveryWeightedClusterIsCapped) {
  CaseGenerator generate(kSeed);
  for (int i = 0; i < kCases; ++i) {
    const auto c = generate.next(CaseShape{});
    const auto plan = planned(c);
    ASSERT_EQ(plan.replicas.size(), c.clusters.size()) << describe(c, plan);
    const std::int64_t sum = sumOf(plan.replicas);
    ASSERT_LE(sum, c.spec.total_replicas) << describe(c, plan);
    if (sum == c.spec.total_replicas) continue;
    for (const auto& name : c.clusters) {
      const auto* preferences = preferencesOf(c, name);
      if (preferences == nullptr || preferences->weight == 0) continue;
      const auto limit = limitOf(c, name);
      ASSERT_TRUE(limit && plan.replicas.at(name) == *limit) << name << " could take more\n"
                                                             << describe(c, plan);
    }
  }
}

// Verifies over random inputs that no cluster gets more than maxReplicas or its capacity, that
// clusters without preferences get nothing, and that every minReplicas is met when the total
// covers them all and no capacity limits them.
TEST(PlannerPropertyTest, RespectsMinimumsAndMaximums) {
  CaseGenerator generate(kSeed + 1);
  for (int i = 0; i < kCases; ++i) {
    const bool with_capacity = i % 2 == 0;
    const auto c = generate.next(CaseShape{.capacity = with_capacity});
    const auto plan = planned(c);
    std::int64_t minimums = 0;
    for (const auto& name : c.clusters) {
      if (const auto* preferences = preferencesOf(c, name)) minimums += preferences->min_replicas;
    }
    for (const auto& name : c.clusters) {
      const std::int64_t replicas = plan.replicas.at(name);
      const auto* preferences = preferencesOf(c, name);
      if (preferences == nullptr) {
        ASSERT_EQ(replicas, 0) << name << "\n" << describe(c, plan);
        continue;
      }
      ASSERT_GE(replicas, 0) << describe(c, plan);
      if (const auto limit = limitOf(c, name)) {
        ASSERT_LE(replicas, *limit) << describe(c, plan);
      }
      if (!with_capacity && minimums <= c.spec.total_replicas) {
        ASSERT_GE(replicas, preferences->min_replicas) << name << "\n" << describe(c, plan);
      }
    }
  }
}

// Verifies that two clusters with only weights split the total within one replica of their
// weights' proportion.
TEST(PlannerPropertyTest, TwoClustersSplitByWeightWithinOneReplica) {
  CaseGenerator generate(kSeed + 2);
  for (int i = 0; i < kCases; ++i) {
    ReplicaSchedulingPreferenceSpec spec;
    spec.total_replicas = static_cast<std::int32_t>(generate.between(0, 10000));
    spec.rebalance = generate.chance(50);
    const std::int64_t a = generate.between(1, 50);
    const std::int64_t b = generate.between(1, 50);
    spec.clusters = {{"east", ClusterPreferences{.weight = a}},
                     {"west", ClusterPreferences{.weight = b}}};
    auto result = planReplicas(spec, {"east", "west"}, {}, {}, "ns/two");
    ASSERT_TRUE(result);
    const auto& plan = result.value().replicas;
    ASSERT_EQ(plan.at("east") + plan.at("west"), spec.total_replicas);
    // |east - total * a / (a + b)| < 1, in integers.
    const std::int64_t deviation = plan.at("east") * (a + b) - spec.total_replicas * a;
    EXPECT_LT(std::abs(deviation), a + b) << "total " << spec.total_replicas << " weights " << a
                                          << ":" << b << " east " << plan.at("east");
  }
}

// Verifies that with weights only (no minimums, maximums, capacity or running replicas) the
// whole total is placed, no cluster gets more than its weighted share rounded up, and a total
// that is a multiple of the weights' sum is split exactly in proportion. (With three or more
// clusters a cluster late in the order can fall more than one replica short of its share:
// KubeFed rounds every share up and the last clusters get what is left, e.g. 5 over four
// equal clusters is 2/2/1/0.)
TEST(PlannerPropertyTest, WeightsOnlySharesAreProportional) {
  CaseGenerator generate(kSeed + 3);
  const CaseShape weights_only{
      .minimums = false, .maximums = false, .running = false, .capacity = false};
  for (int i = 0; i < kCases; ++i) {
    auto c = generate.next(weights_only);
    c.spec.clusters.clear();
    std::int64_t weight_sum = 0;
    for (const auto& name : c.clusters) {
      const std::int64_t w = generate.between(1, 20);
      c.spec.clusters[name] = ClusterPreferences{.weight = w};
      weight_sum += w;
    }
    if (generate.chance(50)) {
      c.spec.total_replicas = static_cast<std::int32_t>(weight_sum * generate.between(0, 40));
    }
    const auto plan = planned(c);
    ASSERT_EQ(sumOf(plan.replicas), c.spec.total_replicas) << describe(c, plan);
    const bool exact = c.spec.total_replicas % weight_sum == 0;
    for (const auto& name : c.clusters) {
      const std::int64_t share_numerator = c.spec.total_replicas * c.spec.clusters[name].weight;
      const std::int64_t ceiling = (share_numerator + weight_sum - 1) / weight_sum;
      ASSERT_LE(plan.replicas.at(name), ceiling) << name << "\n" << describe(c, plan);
      if (exact) {
        ASSERT_EQ(plan.replicas.at(name) * weight_sum, share_numerator) << describe(c, plan);
      }
    }
  }
}

// Verifies that the plan depends on the inputs only: not on the order of the candidate list,
// nor on earlier calls.
TEST(PlannerPropertyTest, IsDeterministic) {
  CaseGenerator generate(kSeed + 4);
  for (int i = 0; i < kCases; ++i) {
    auto c = generate.next(CaseShape{});
    const auto first = planned(c);
    std::shuffle(c.clusters.begin(), c.clusters.end(), generate.rng());
    const auto second = planned(c);
    ASSERT_EQ(first.replicas, second.replicas) << describe(c, first);
    ASSERT_EQ(first.overflow, second.overflow) << describe(c, first);
  }
}

// Verifies that overflow only names clusters with a known capacity, and that without rebalance
// it never exceeds the replicas the plan could not place.
TEST(PlannerPropertyTest, OverflowIsBoundedByCapacityAndWhatIsLeft) {
  CaseGenerator generate(kSeed + 5);
  int with_overflow = 0;
  for (int i = 0; i < kCases; ++i) {
    const auto c = generate.next(CaseShape{});
    const auto plan = planned(c);
    const std::int64_t unplaced = c.spec.total_replicas - sumOf(plan.replicas);
    for (const auto& [name, replicas] : plan.overflow) {
      ASSERT_TRUE(c.capacity.count(name)) << name << "\n" << describe(c, plan);
      ASSERT_GT(replicas, 0) << describe(c, plan);
      ASSERT_EQ(plan.replicas.at(name), c.capacity.at(name)) << describe(c, plan);
      if (!c.spec.rebalance) {
        ASSERT_LE(replicas, unplaced) << describe(c, plan);
      }
    }
    with_overflow += plan.overflow.empty() ? 0 : 1;
  }
  EXPECT_GT(with_overflow, kCases / 50) << "the generator should produce overflow often";
}

}  // namespace
}  // namespace kf::scheduling
