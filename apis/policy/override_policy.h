#pragma once
// policy.kubefed-cpp.io/v1alpha1 OverridePolicy (namespaced) and ClusterOverridePolicy: KubeFed
// overrides (a JSON Patch per cluster, spec §1.6) applied to every federated object a policy
// selects, in every member cluster it selects, so that "the regional registry in every EU
// cluster" is one object instead of an override per object and cluster. Not KubeFed's: an
// addition, off while no policy exists.
//
//   spec:
//     resourceSelector: {kind: FederatedDeployment, labelSelector: {matchLabels: {tier: web}}}
//     clusterSelector: {matchLabels: {region: eu}}     # or clusterNames: [a, b]; neither: all
//     overrides:
//     - {path: /spec/template/spec/containers/0/image,
//        value: 'registry-${CLUSTER_LABEL:region}.example/app:1'}
//
// An OverridePolicy selects objects in its own namespace only; a ClusterOverridePolicy in every
// namespace (and cluster-scoped federated objects). String values may use the variables of
// override_variables.h.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/label_selector.h"
#include "apis/meta/object.h"

namespace kf::policy {

inline constexpr std::string_view kGroup = "policy.kubefed-cpp.io";
inline constexpr std::string_view kVersion = "v1alpha1";
inline constexpr std::string_view kOverridePolicyKind = "OverridePolicy";
inline constexpr std::string_view kClusterOverridePolicyKind = "ClusterOverridePolicy";

GroupVersionResource overridePoliciesResource();         // namespaced
GroupVersionResource clusterOverridePoliciesResource();  // cluster-scoped

// Paths a policy may not override: those KubeFed forbids in spec.overrides (they tie member
// objects to the federated object) and the managed label, which marks what the controller owns.
inline constexpr std::string_view kPolicyForbiddenPaths[] = {
    "/metadata/namespace", "/metadata/name", "/metadata/generateName", "/kind",
    "/metadata/labels/kubefed.io~1managed"};

// One override: KubeFed's clusterOverrides entry, its value possibly using variables.
struct PolicyOverride {
  std::string op;  // "" (replace), "add", "replace" or "remove"
  std::string path;
  std::optional<Json> value;  // absent: none (written as null, as KubeFed does)
};

struct OverridePolicy {
  std::string kind;  // kOverridePolicyKind or kClusterOverridePolicyKind
  std::string name;
  std::string ns;  // "" for a ClusterOverridePolicy
  std::int64_t generation = 0;
  std::string resource_kind;                    // the federated kind, e.g. FederatedDeployment
  meta::CompiledLabelSelector resource_labels;  // no requirements: every object of the kind
  std::optional<meta::CompiledLabelSelector> cluster_selector;
  std::optional<std::vector<std::string>> cluster_names;  // wins over nothing: not with a selector
  std::vector<PolicyOverride> overrides;

  bool clusterScoped() const { return kind == kClusterOverridePolicyKind; }
  // `OverridePolicy "apps/eu-registry"` or `ClusterOverridePolicy "all-eu"`.
  std::string describe() const;
  // "apps/eu-registry" or "all-eu": the informer key.
  std::string key() const;
};

// Reads and validates a policy object of either kind. The error (BadRequest) lists every
// problem with its field path, e.g.
//   spec.overrides[0].path: Invalid value: "/metadata/name": may not be overridden
//   spec.overrides[1].value: Invalid value: "${REGION}": unknown variable ${REGION}: ...
Result<OverridePolicy> parseOverridePolicy(const Json& object);

// spec.resourceSelector.kind of a policy object, or "" when it has none: which sync controller
// answers for a policy, even an invalid one.
std::string resourceKindOf(const Json& object);

}  // namespace kf::policy
