#pragma once
// Dependencies that follow their workloads (beyond KubeFed, opt-in by the annotation
// kubefed-cpp.io/placement-follows: workloads on a namespaced federated object): what a federated
// workload's pod template references, and the placement of an object that follows the workloads
// referencing it. Pure; the sync controller feeds them from its caches.
//
// A federated workload is a federated object whose template holds a pod template:
// spec.template.spec.template (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job) or
// spec.template.spec.jobTemplate.spec.template (CronJob).

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/object.h"

namespace kf::sync {

inline constexpr char kPlacementFollowsAnnotation[] = "kubefed-cpp.io/placement-follows";
inline constexpr char kFollowsWorkloads[] = "workloads";

// The federated kinds of types.kubefed.io/v1beta1 (as `kubefedctl enable` names them) whose
// objects are workloads: FederatedDeployment, -StatefulSet, -DaemonSet, -ReplicaSet, -Job,
// -CronJob.
bool isFederatedWorkloadKind(std::string_view federated_kind);
inline constexpr char kFederatedTypesGroup[] = "types.kubefed.io";
inline constexpr char kFederatedTypesVersion[] = "v1beta1";

// What the annotation asks for.
enum class FollowsMode {
  kOwnPlacement,  // no annotation: KubeFed's placement
  kWorkloads,     // the union of the referencing workloads' placements
  kInvalid,       // another value: the object's own placement, with a warning
};
FollowsMode followsModeOf(const Json& federated_object);

// The names a pod template references, by the kind of the referenced object.
struct PodTemplateReferences {
  std::set<std::string> config_maps;
  std::set<std::string> secrets;
  std::set<std::string> service_accounts;
  std::set<std::string> persistent_volume_claims;

  bool operator==(const PodTemplateReferences&) const = default;
};

// The pod template of a federated workload; null for an object that has none.
const Json* podTemplateOfFederated(const Json& federated_object);

// Volumes (configMap, secret, persistentVolumeClaim, projected configMap and secret sources),
// env valueFrom (configMapKeyRef, secretKeyRef), envFrom, imagePullSecrets and
// serviceAccountName (the deprecated serviceAccount when it is absent; "default" when neither is
// set) of the containers, init containers and ephemeral containers. Fields of the wrong type are
// skipped.
PodTemplateReferences referencesOf(const Json& pod_template);

// The names of `target_kind` (a core kind: ConfigMap, Secret, ServiceAccount,
// PersistentVolumeClaim) among `references`; null for any other kind.
const std::set<std::string>* referencedNamesOfKind(const PodTemplateReferences& references,
                                                   std::string_view target_kind);

// Whether `target_kind` is a kind a pod template can reference.
bool referenceableKind(std::string_view target_kind);

// Whether the federated workload's pod template references the object of `target_kind` named
// `name` (in the workload's namespace).
bool referencesObject(const Json& federated_workload, std::string_view target_kind,
                      const std::string& name);

// One referencing workload as the follower's placement sees it.
struct ReferencingWorkload {
  std::string description;          // e.g. `FederatedDeployment "web"`
  std::set<std::string> placement;  // its resolved clusters
};

// The union of the workloads' placements.
std::set<std::string> followerPlacement(const std::vector<ReferencingWorkload>& workloads);

}  // namespace kf::sync
