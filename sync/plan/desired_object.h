#pragma once
// The object KubeFed wants in one member cluster (spec §2.5.4):
//   1. a copy of spec.template ({} when absent, e.g. for FederatedNamespace);
//   2. template metadata.annotations and metadata.finalizers dropped (the caller emits the
//      Warning events AnnotationsNotSupported / FinalizersNotSupported);
//   3. metadata.name := federated name; metadata.namespace := federated namespace (left as in
//      the template for Namespace targets); kind := target kind; apiVersion := the template's,
//      else "<group>/<version>" (QUIRK kept: "/v1" for the core group, which servers accept);
//   4. on update only, the member-owned fields retained from the cluster object (retain.h);
//   5. the cluster's overrides applied (overrides.h), after those of the override policies that
//      select the object and the cluster, when any (override_policy.h; not KubeFed's);
//   6. label kubefed.io/managed=true, last, so that no override can remove it.

#include <optional>
#include <string>
#include <string_view>

#include "apis/core/federated_type_config.h"
#include "sync/plan/override_policy.h"
#include "sync/plan/propagation_status.h"

namespace kf::sync {

inline constexpr std::string_view kAnnotationsNotSupportedReason = "AnnotationsNotSupported";
inline constexpr std::string_view kFinalizersNotSupportedReason = "FinalizersNotSupported";
// The Warning message for a dropped template field, `field` being "annotations" or "finalizers".
std::string templateFieldNotSupportedMessage(std::string_view field);

struct TemplateObject {
  Json object;
  bool dropped_annotations = false;  // emit AnnotationsNotSupported
  bool dropped_finalizers = false;   // emit FinalizersNotSupported
};

// Steps 1-3. Fails (ComputeResourceFailed) when spec.template is not an object.
Result<TemplateObject> objectFromTemplate(const Json& federated_object,
                                          const core::ApiResource& target_type);

struct DesiredObject {
  Json object;  // meaningful only when failure is kOk
  bool dropped_annotations = false;
  bool dropped_finalizers = false;
  // kOk, or the cluster status to record: kComputeResourceFailed, kFieldRetentionFailed or
  // kApplyOverridesFailed; `error` then says why.
  PropagationStatus failure = PropagationStatus::kOk;
  std::string error;

  bool ok() const { return failure == PropagationStatus::kOk; }
};

// Steps 1-6 for `cluster_name`. `cluster_object` is the member's current object on the update
// path (retention applies) and nullptr on the create path. `policy_patches`: the cluster's
// override-policy patches, in order (null: none); one that fails is left out, as the pass that
// computed them has reported (override_policy.h).
DesiredObject desiredObjectForCluster(const Json& federated_object,
                                      const core::ApiResource& target_type,
                                      const std::string& cluster_name, const Json* cluster_object,
                                      const std::vector<PolicyPatch>* policy_patches = nullptr);

}  // namespace kf::sync
