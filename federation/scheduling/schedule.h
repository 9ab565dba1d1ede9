#pragma once
// From candidates and replica state to the replicas each cluster should run (spec §2.7 steps
// 5-7).
//   5. An RSP without cluster entries spreads evenly: {"*": {weight: 1}}.
//   6. The planner (planner.h), keyed by the RSP's "<namespace>/<name>".
//   7. The result: 0 for every cluster running the workload, then the plan (every candidate,
//      including those planned 0), plus overflow. KubeFed then places the federated object in
//      every cluster of the result, 0 replicas included.

#include <string_view>
#include <vector>

#include "federation/scheduling/planner.h"
#include "federation/scheduling/replica_state.h"

namespace kf::scheduling {

// Step 5: `spec` with {"*": {weight: 1}} when it names no cluster.
ReplicaSchedulingPreferenceSpec withDefaultPreferences(ReplicaSchedulingPreferenceSpec spec);

// Steps 5-7 over `candidates`. Fails when the planner refuses the preferences or counts.
Result<ReplicaCounts> scheduleReplicas(const ReplicaSchedulingPreferenceSpec& spec,
                                       const std::vector<std::string>& candidates,
                                       const ReplicaState& state, std::string_view key);

}  // namespace kf::scheduling
