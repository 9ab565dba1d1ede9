#pragma once
// Per-cluster overrides of a federated object (spec §1.6): a JSON Patch per cluster, applied to
// the object computed from the template. Reading them checks what KubeFed checks, with its
// messages (every cluster operation of the object then fails with ApplyOverridesFailed):
//   cluster "a" appears more than once
//   path "/spec/x" appears more than once for cluster "a"
//   override[0] for cluster "a" has an invalid path: /metadata/name
// Overrides for clusters the object is not placed in are never looked at.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "apis/federated/federated_resource.h"

namespace kf::sync {

// Exact paths that may not be overridden: they tie member objects to the federated object, and
// the kind comes from the FederatedTypeConfig. apiVersion may be overridden.
inline constexpr std::string_view kForbiddenOverridePaths[] = {
    "/metadata/namespace", "/metadata/name", "/metadata/generateName", "/kind"};

// Overrides by cluster name, in the order written.
using OverridesMap = std::map<std::string, std::vector<federated::ClusterOverride>>;

Result<OverridesMap> overridesByCluster(const std::vector<federated::ClusterOverrides>& items);
// spec.overrides of a federated object, read and checked.
Result<OverridesMap> readOverridesMap(const Json& federated_object);

// Applies one cluster's overrides to `object` (all or nothing). An empty op means replace; an
// override without value writes null. Values reach the object as KubeFed's Go round trip leaves
// them: each number goes through float64 and is an integer again when it is integral and fits
// int64 (so 5.0 becomes 5 and 2^53+1 becomes 2^53). Errors name the cluster, the override
// and the path: `cluster "c": override[1] (remove /spec/x): error in remove for path: ...`.
Status applyClusterOverrides(Json& object, const std::string& cluster_name,
                             const std::vector<federated::ClusterOverride>& overrides);

}  // namespace kf::sync
