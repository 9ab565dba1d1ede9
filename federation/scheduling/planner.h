#pragma once
// The ReplicaSchedulingPreference planner (spec §2.7 step 6): how many of spec.totalReplicas
// each candidate cluster gets, given the preferences, the replicas already running and the
// estimated capacity of each cluster.
//
//   1. Each candidate takes its own entry of spec.clusters, else the "*" entry; a cluster with
//      neither is planned 0 and takes no further part.
//   2. Order: weight descending; equal weights by FNV-1 32 of (cluster name + key) ascending, so
//      that single replicas do not all land on the alphabetically first cluster.
//   3. Minimum pass, in that order: min(minReplicas, what remains, capacity). maxReplicas is not
//      applied here (a later cap can hand replicas back).
//   4. Without rebalance, replicas already running stay where they are (pre-allocated), up to
//      maxReplicas and capacity.
//   5. Weighted passes until nothing changes: each cluster still taking replicas gets
//      ceil(remaining * weight / sum of weights), pre-allocated replicas counted first, capped at
//      maxReplicas and at capacity (the excess is overflow).
// KubeFed's implementation details that shape the output are kept: a cluster at its cap is only
// marked full when a pass pushes it past the cap, and overflow is the excess of the pass in which
// the cluster became full.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "apis/scheduling/replica_scheduling_preference.h"

namespace kf::scheduling {

// Replicas by cluster name.
using ReplicaCounts = std::map<std::string, std::int64_t>;

struct ReplicaPlan {
  // Every candidate cluster, including those planned 0.
  ReplicaCounts replicas;
  // Replicas a cluster would get if its estimated capacity allowed: worth scheduling there in
  // case they do start. With rebalance off, trimmed to what could not be placed anywhere.
  ReplicaCounts overflow;
};

// Fails, naming the field, when a count or weight is negative: KubeFed would compute negative
// replicas from them, which no member accepts.
Status validatePreferences(const ReplicaSchedulingPreferenceSpec& spec);

// Plans spec.totalReplicas over `clusters` (distinct names). `current` holds the replicas running
// in clusters that have the workload, `capacity` the clusters whose capacity is known; both must
// be >= 0. `key` is "<namespace>/<name>" of the RSP. Fails on invalid preferences or counts.
Result<ReplicaPlan> planReplicas(const ReplicaSchedulingPreferenceSpec& spec,
                                 const std::vector<std::string>& clusters,
                                 const ReplicaCounts& current, const ReplicaCounts& capacity,
                                 std::string_view key);

}  // namespace kf::scheduling
