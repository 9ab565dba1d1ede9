#pragma once
// The placement of a federated object that follows its workloads (beyond KubeFed, opt-in by
// kubefed-cpp.io/placement-follows: workloads; sync/plan/workload_references.h): the union of
// the resolved placements of the cached federated workloads in its namespace that reference it.
// Its own placement is then ignored. An Event says when the union changed.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "federation/cluster/cluster_registry.h"
#include "sync/controller/sync_context.h"

namespace kf::sync {

struct FollowedPlacement {
  enum class Kind {
    kOwn,        // the object does not follow: its own placement applies
    kFollowed,   // `clusters` is the union
    kNotSynced,  // the workload caches are not listed yet: try again later
  };
  Kind kind = Kind::kOwn;
  std::set<std::string> clusters;
};

// For `federated_object` (namespaced; `federated_namespace` as for placementOf). Fails when the
// workload types cannot be found out (the pass is retried). An annotation with another value
// than `workloads`, or on a kind no pod template references, is a Warning event
// (InvalidPlacementFollows), and the object's own placement applies.
Result<FollowedPlacement> followedPlacementOf(SyncContext& context, const Json& federated_object,
                                              const Json* federated_namespace,
                                              const std::vector<ClusterSnapshot>& clusters);

}  // namespace kf::sync
