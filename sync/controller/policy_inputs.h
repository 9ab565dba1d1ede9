#pragma once
// What override policies add to a propagation pass's inputs (pass_inputs.h): the patches of the
// policies that select the object, per placed cluster (their fingerprints mark the recorded
// versions: override_policy.h). Shared by the pass and by `kubefedctl plan`.

#include <set>
#include <string>
#include <vector>

#include "apis/policy/override_policy.h"
#include "federation/cluster/cluster_registry.h"
#include "sync/controller/pass_inputs.h"
#include "sync/controller/sync_context.h"
#include "sync/plan/override_policy.h"

namespace kf::sync {

// The patches of `policies` for `federated_object` in the clusters of `placement`, those the
// object cannot take (tried on the object from its template) moved to the failures.
PolicyPatches policyPatchesOf(const SyncTypeInfo& type, const Json& federated_object,
                              const std::vector<policy::OverridePolicy>& policies,
                              const std::vector<ClusterSnapshot>& clusters,
                              const std::set<std::string>& placement);

}  // namespace kf::sync
