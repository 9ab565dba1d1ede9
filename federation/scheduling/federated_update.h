#pragma once
// Writing a scheduling result into the federated object (spec §2.7 step 8), as KubeFed's
// replica scheduling plugin does before its full PUT:
//   * spec.placement.clusters becomes every cluster of the result (0 replicas included), sorted,
//     when the sorted names differ from the current list. This replaces `clusters`, which then
//     wins over any clusterSelector.
//   * /spec/replicas overrides: removed from clusters not in the result (their other overrides
//     stay); set to the result for clusters that have one; appended as {path, value} (no `op`)
//     for those that do not, new clusters' entries after the existing ones. Only rewritten when
//     some replicas override differs from the result or their number differs from the result's.
//     KubeFed reads override values as float64 and truncates them to integers before comparing:
//     3.0 and 3.7 both equal 3, a value that is not a number always differs.
// The overrides are checked as KubeFed checks them before touching anything (a cluster listed
// twice, a path twice for one cluster, a path that may not be overridden).

#include <optional>

#include "federation/scheduling/planner.h"

namespace kf::scheduling {

inline constexpr std::string_view kReplicasPath = "/spec/replicas";

// The federated object with `result` written into it, or nullopt when it already carries it
// (nothing to write). Fails, naming the object and the field, on a malformed placement or
// overrides.
Result<std::optional<Json>> applySchedulingResult(const Json& federated_object,
                                                  const ReplicaCounts& result);

}  // namespace kf::scheduling
