#include "federation/scheduling/planner.h"

#include <algorithm>
#include <optional>

#include "apis/meta/field_errors.h"
#include "federation/scheduling/fnv.h"

namespace kf::scheduling {

namespace {

// Weighted shares multiply a replica count by a user-given int64 weight: 128 bits cannot
// overflow where 64 could.
__extension__ typedef __int128 WideInt;

struct RankedCluster {
  std::string name;
  std::uint32_t tie_break;  // FNV-1 32 of name + key
  ClusterPreferences preferences;
};

bool rankedBefore(const RankedCluster& a, const RankedCluster& b) {
  if (a.preferences.weight != b.preferences.weight) {
    return a.preferences.weight > b.preferences.weight;
  }
  if (a.tie_break != b.tie_break) return a.tie_break < b.tie_break;
  return a.name < b.name;  // only on a hash collision, where Go's order is arbitrary
}

std::optional<std::int64_t> countOf(const ReplicaCounts& counts, const std::string& name) {
  auto it = counts.find(name);
  if (it == counts.end()) return std::nullopt;
  return it->second;
}

// What the passes share while they run.
struct PlanState {
  ReplicaCounts plan;
  ReplicaCounts overflow;
  ReplicaCounts preallocated;
  std::int64_t remaining = 0;
};

// The clusters that have preferences, in planning order; the others are planned 0.
std::vector<RankedCluster> rankClusters(const ReplicaSchedulingPreferenceSpec& spec,
                                        const std::vector<std::string>& clusters,
                                        std::string_view key, PlanState& state) {
  const auto wildcard = spec.clusters.find(std::string(kAllClusters));
  std::vector<RankedCluster> ranked;
  for (const auto& name : clusters) {
    auto own = spec.clusters.find(name);
    const auto entry = own != spec.clusters.end() ? own : wildcard;
    if (entry == spec.clusters.end()) {
      state.plan[name] = 0;
      continue;
    }
    ranked.push_back(RankedCluster{name, fnv1Hash32(key, fnv1Hash32(name)), entry->second});
  }
  std::sort(ranked.begin(), ranked.end(), rankedBefore);
  return ranked;
}

void assignMinimums(const std::vector<RankedCluster>& ranked, const ReplicaCounts& capacity,
                    PlanState& state) {
  for (const auto& cluster : ranked) {
    std::int64_t replicas = std::min(cluster.preferences.min_replicas, state.remaining);
    if (auto known = countOf(capacity, cluster.name)) replicas = std::min(replicas, *known);
    state.remaining -= replicas;
    state.plan[cluster.name] = replicas;
  }
}

// Without rebalance, running replicas beyond the minimum stay where they are.
void preallocateRunning(const std::vector<RankedCluster>& ranked, const ReplicaCounts& current,
                        const ReplicaCounts& capacity, PlanState& state) {
  for (const auto& cluster : ranked) {
    const std::int64_t planned = state.plan[cluster.name];
    const auto running = countOf(current, cluster.name);
    if (!running || *running <= planned) continue;
    std::int64_t target = *running;
    if (cluster.preferences.max_replicas) {
      target = std::min(target, *cluster.preferences.max_replicas);
    }
    if (auto known = countOf(capacity, cluster.name)) target = std::min(target, *known);
    const std::int64_t extra =
        std::max<std::int64_t>(0, std::min(target - planned, state.remaining));
    state.remaining -= extra;
    state.preallocated[cluster.name] = extra;
    state.plan[cluster.name] = planned + extra;
  }
}

// ceil(distribute * weight / weight_sum); weight <= weight_sum, so it fits distribute's range.
std::int64_t weightedShare(std::int64_t distribute, std::int64_t weight, WideInt weight_sum) {
  const WideInt product = static_cast<WideInt>(distribute) * weight;
  return static_cast<std::int64_t>((product + weight_sum - 1) / weight_sum);
}

// One weighted pass over the clusters still taking replicas; drops those that became full.
// Returns whether any cluster took replicas or used pre-allocated ones.
bool weightedPass(std::vector<const RankedCluster*>& active, const ReplicaCounts& capacity,
                  PlanState& state) {
  WideInt weight_sum = 0;
  for (const auto* cluster : active) weight_sum += cluster->preferences.weight;
  const std::int64_t distribute = state.remaining;
  std::vector<const RankedCluster*> still_active;
  bool changed = false;
  for (const auto* cluster : active) {
    // All weights 0: KubeFed ends the pass here, and no cluster stays active.
    if (weight_sum <= 0) break;
    const auto& preferences = cluster->preferences;
    const std::int64_t start = state.plan[cluster->name];
    std::int64_t extra =
        std::min(weightedShare(distribute, preferences.weight, weight_sum), state.remaining);

    std::int64_t& preallocated = state.preallocated[cluster->name];
    const std::int64_t used = std::min(extra, preallocated);
    preallocated -= used;
    extra -= used;
    changed = changed || used > 0;

    std::int64_t total = start + extra;
    bool full = false;
    if (preferences.max_replicas && total > *preferences.max_replicas) {
      total = *preferences.max_replicas;
      full = true;
    }
    if (auto known = countOf(capacity, cluster->name); known && total > *known) {
      state.overflow[cluster->name] = total - *known;
      total = *known;
      full = true;
    }
    if (!full) still_active.push_back(cluster);
    // A cap below the minimum pass's share hands replicas back (total < start).
    state.remaining -= total - start;
    state.plan[cluster->name] = total;
    changed = changed || total > start;
  }
  active = std::move(still_active);
  return changed;
}

void distributeByWeight(const std::vector<RankedCluster>& ranked, const ReplicaCounts& capacity,
                        PlanState& state) {
  std::vector<const RankedCluster*> active;
  for (const auto& cluster : ranked) active.push_back(&cluster);
  bool changed = true;
  while (changed && state.remaining > 0) changed = weightedPass(active, capacity, state);
}

// Without rebalance only the replicas that found no place are worth scheduling as overflow.
ReplicaCounts trimmedOverflow(const PlanState& state) {
  ReplicaCounts out;
  for (const auto& [name, replicas] : state.overflow) {
    const std::int64_t trimmed = std::min(replicas, state.remaining);
    if (trimmed > 0) out[name] = trimmed;
  }
  return out;
}

void checkNotNegative(meta::ErrorList& errors, const meta::FieldPath& path, std::int64_t value) {
  if (value < 0) {
    errors.push_back(
        meta::invalid(path, meta::BadValue::number(value), "must be greater than or equal to 0"));
  }
}

Status validateCounts(const ReplicaCounts& counts, const char* what) {
  for (const auto& [name, count] : counts) {
    if (count < 0) {
      return makeError(Reason::kBadRequest, std::string(what) + " of cluster " +
                                                meta::goQuote(name) +
                                                " is negative: " + std::to_string(count));
    }
  }
  return boost::outcome_v2::success();
}

}  // namespace

Status validatePreferences(const ReplicaSchedulingPreferenceSpec& spec) {
  const meta::FieldPath path("spec");
  meta::ErrorList errors;
  checkNotNegative(errors, path.child("totalReplicas"), spec.total_replicas);
  for (const auto& [name, preferences] : spec.clusters) {
    const auto cluster = path.child("clusters").key(name);
    checkNotNegative(errors, cluster.child("minReplicas"), preferences.min_replicas);
    if (preferences.max_replicas) {
      checkNotNegative(errors, cluster.child("maxReplicas"), *preferences.max_replicas);
    }
    checkNotNegative(errors, cluster.child("weight"), preferences.weight);
  }
  if (errors.empty()) return boost::outcome_v2::success();
  return makeError(Reason::kInvalid, meta::aggregate(errors));
}

Result<ReplicaPlan> planReplicas(const ReplicaSchedulingPreferenceSpec& spec,
                                 const std::vector<std::string>& clusters,
                                 const ReplicaCounts& current, const ReplicaCounts& capacity,
                                 std::string_view key) {
  KF_TRYV(validatePreferences(spec));
  KF_TRYV(validateCounts(current, "current replicas"));
  KF_TRYV(validateCounts(capacity, "estimated capacity"));

  PlanState state;
  state.remaining = spec.total_replicas;
  const auto ranked = rankClusters(spec, clusters, key, state);
  assignMinimums(ranked, capacity, state);
  if (!spec.rebalance) preallocateRunning(ranked, current, capacity, state);
  distributeByWeight(ranked, capacity, state);

  ReplicaPlan out;
  out.overflow = spec.rebalance ? state.overflow : trimmedOverflow(state);
  out.replicas = std::move(state.plan);
  return out;
}

}  // namespace kf::scheduling
