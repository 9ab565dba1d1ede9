#pragma once
// What one sync controller's reconciles share: the type they propagate and the parts the
// controller owns (caches, version manager, executors). The SyncReconciler builds it once and
// hands it to every reconcile; the parts are thread-safe.

#include <atomic>
#include <memory>
#include <string>

#include "apis/core/federated_type_config.h"
#include "federation/client/rest_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/control_plane_config.h"
#include "federation/controller/member_informers.h"
#include "federation/events/event_recorder.h"
#include "federation/runtime/clock.h"
#include "sync/controller/follows_memos.h"
#include "sync/controller/generation_memo.h"
#include "sync/controller/host_informers.h"
#include "sync/io/cluster_executors.h"
#include "sync/io/member_operations.h"
#include "sync/io/version_manager.h"
#include "sync/io/written_objects.h"

namespace kf::sync {

class OverridePolicies;   // override_policies.h
class WorkloadFollowers;  // workload_followers.h
class FollowerDirectory;  // follower_directory.h

// The federated type as the sync controller needs it, resolved from the FTC at start.
struct SyncTypeInfo {
  core::ApiResource target_type;     // kind, group, version, plural, scope
  core::ApiResource federated_type;  // Federated<Kind>
  GroupVersionResource target_resource;
  GroupVersionResource federated_resource;
  bool target_is_namespace = false;  // the `namespaces` type
  // Raw resource status collection: FTC statusCollection Enabled and the feature gate on.
  bool raw_status_collection = false;
  std::string kubefed_namespace;
  bool namespace_scoped_control_plane = false;
  bool skip_adopting = false;
  // The FTC's drift-policy annotations (member_policy.h): the type's default. Read when the
  // controller starts.
  StringMap policy_defaults;

  // Namespaced targets (not Namespace itself) are placed within their FederatedNamespace.
  bool targetNamespaced() const { return target_type.namespaced(); }
};

// The resource of an FTC's type: group, version, plural and scope.
GroupVersionResource groupVersionResourceOf(const core::ApiResource& type);

// The type as the FederatedTypeConfig (defaulted here) and the control plane's settings describe
// it. Fails when the FTC cannot be propagated (a cluster-scoped type on a namespace-scoped control
// plane, a type without a plural name).
Result<SyncTypeInfo> syncTypeInfo(core::FederatedTypeConfig ftc, const ControlPlaneConfig& config);

struct SyncContext {
  SyncTypeInfo type;
  std::shared_ptr<RestClient> host;
  ClusterRegistry& clusters;
  HostInformers& host_informers;
  MemberInformers& member_informers;
  VersionManager& versions;
  ClusterExecutors& executors;
  EventRecorderPtr recorder;
  Clock& clock;
  // Shared by every member operation of one reconcile (KubeFed: 30 s).
  Duration operation_timeout;
  // Set when the controller stops: member operations are cancelled then, and a reconcile must
  // not write what they left behind.
  const std::atomic<bool>& stopping;
  // The generations the unknown-placement warning was given for (propagation_pass.cc).
  GenerationMemo unknown_placement_warned{};
  // Federated objects as our own writes left them, until the host cache shows them.
  WrittenObjects written_objects{};
  // The override policies of the type (null or inactive: none, KubeFed's behaviour).
  OverridePolicies* override_policies = nullptr;
  // Dependencies that follow their workloads (kubefed-cpp.io/placement-follows): the workloads
  // objects of this type follow (null: a type no pod template references), the last placements
  // they were given, where a workload finds the followers it waits for, and since when it waits.
  WorkloadFollowers* workload_followers = nullptr;
  FollowedPlacementMemo followed_placements{};
  FollowerDirectory* follower_directory = nullptr;
  DependencyWaits dependency_waits{};
  // The type's CRD prunes status.rollout: the rollout summary is no longer written (noticed on
  // the first write, so that a pruned field is not written again on every pass).
  std::atomic<bool> rollout_summary_pruned{false};
};

// The parts of a MemberObjectContext that only depend on the type and the object (no clients,
// events or clock): all that deciding, as opposed to acting, needs. `host_namespace_uid` is the
// UID of the host's own Namespace named like the target, for a Namespace target ("" otherwise).
MemberObjectContext memberObjectBasics(const SyncTypeInfo& type, ObjectPtr federated,
                                       const QualifiedName& target,
                                       ClusterVersions recorded_versions,
                                       std::string host_namespace_uid);

// What the member operations on `federated`'s objects (named `target`) share during one
// reconcile. `federated` may be null (an orphaned member object: no events are recorded).
std::shared_ptr<MemberObjectContext> memberObjectContext(const SyncContext& context,
                                                         ObjectPtr federated,
                                                         const QualifiedName& target,
                                                         ClusterVersions recorded_versions);

}  // namespace kf::sync
