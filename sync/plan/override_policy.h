#pragma once
// Override policies (apis/policy/override_policy.h) as the sync controller applies them: which
// policies select a federated object, which placed clusters each selects, their values with the
// cluster's variables expanded, and the order. Pure.
//
// Order, per cluster: ClusterOverridePolicies by name, then OverridePolicies by name, then the
// object's own spec.overrides (desired_object.h), so that a later one wins where two set the
// same path, and manifests written for KubeFed keep winning over any policy.
//
// A policy that cannot be applied to one object in one cluster (a variable naming a label the
// cluster lacks, a patch whose path the object does not have) is left out there, whole; the
// object still goes to that cluster with the other policies and its own overrides applied, and
// the failure is reported (on the policy's status and as a Warning event). A missing label is
// an error and not an empty string: an image "registry-.example/app" is worse than the
// template's image, and an error tells the user which cluster to label.

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "apis/federated/federated_resource.h"
#include "apis/policy/override_policy.h"
#include "sync/plan/propagated_versions.h"

namespace kf::sync {

// A member cluster as the variables see it.
struct PolicyCluster {
  std::string name;
  std::map<std::string, std::string> labels;
};

// Whether `policy` selects `federated_object`: the same federated kind, labels matching its
// resource label selector, and, for an OverridePolicy, the same namespace.
bool policySelectsObject(const policy::OverridePolicy& policy, const Json& federated_object);

// Whether `policy` selects `cluster`: named in clusterNames, or matching clusterSelector, or
// every cluster when it has neither.
bool policySelectsCluster(const policy::OverridePolicy& policy, const PolicyCluster& cluster);

// The policies that select `federated_object`, in the order they apply.
std::vector<const policy::OverridePolicy*> policiesSelecting(
    const std::vector<policy::OverridePolicy>& policies, const Json& federated_object);

// `value` with every variable in its strings replaced by `cluster`'s name or label; fails
// naming the variable and the cluster when the cluster lacks a label.
Result<Json> expandVariables(const Json& value, const PolicyCluster& cluster);

// What one policy does in one cluster: its overrides with the variables expanded.
struct PolicyPatch {
  std::string policy;  // policy::OverridePolicy::describe()
  std::vector<federated::ClusterOverride> overrides;

  bool operator==(const PolicyPatch&) const = default;
};

// A policy left out of one cluster for one object.
struct PolicyFailure {
  std::string policy;  // describe()
  std::string cluster;
  std::string message;

  bool operator==(const PolicyFailure&) const = default;
};

struct PolicyPatches {
  std::vector<std::string> selecting;                          // describe() of each, in order
  std::map<std::string, std::vector<PolicyPatch>> by_cluster;  // placed clusters only
  std::vector<PolicyFailure> failures;

  // One cluster's patches, in order (none: empty).
  const std::vector<PolicyPatch>& forCluster(const std::string& cluster) const;
};

// The patches of the policies selecting `federated_object`, for each cluster of `placed`.
PolicyPatches policyPatchesFor(const std::vector<policy::OverridePolicy>& policies,
                               const Json& federated_object,
                               const std::vector<PolicyCluster>& placed);

// Applies `patches` in order to `object`; a patch that fails leaves `object` as it was before it
// and is returned as a failure (the others still apply).
std::vector<PolicyFailure> applyPolicyPatches(Json& object, const std::string& cluster,
                                              const std::vector<PolicyPatch>& patches);

// Tries every cluster's patches on `template_object` (the object before per-cluster changes)
// and moves those that fail to `failures`, so that what is recorded and reported is what the
// members get.
void dropFailingPatches(PolicyPatches& patches, const Json& template_object);

// The member versions recorded for an object (propagated_versions.h) carry, for each cluster
// the policies change, a fingerprint of what they change there: "rv:5+policies:<md5>". So the
// template and overrides hashes stay KubeFed's, and a policy edit, a relabelled cluster or a
// removed policy rewrites only the members whose policy patches changed.
inline constexpr std::string_view kPolicyVersionSeparator = "+policies:";

// The fingerprint of one cluster's patches; "" for none.
std::string clusterPatchesDigest(const std::vector<PolicyPatch>& patches);

// The recorded versions as the pass compares them with the members': a version recorded under
// the cluster's current fingerprint without it; one recorded under another fingerprint (or
// without one where the policies now change something, or with one where they no longer do)
// left out, so that the member is written.
ClusterVersions versionsUnderPolicies(const ClusterVersions& recorded,
                                      const PolicyPatches& patches);

// The versions to record after the pass's writes: each with its cluster's fingerprint.
ClusterVersions versionsWithPolicies(const ClusterVersions& written, const PolicyPatches& patches);

}  // namespace kf::sync
