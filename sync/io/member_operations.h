#pragma once
// The four things the sync controller does to a member object (spec §2.5.6), each run as one
// dispatched operation on the cluster's executor: create (adopting an existing object unless
// adoption is disabled), update (only when the recorded version says the member drifted), delete,
// and remove the managed label. Each records KubeFed's events ("<Op>InCluster" /
// "<Op>InClusterFailed") and reports its outcome through the OperationReport.

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "apis/core/federated_type_config.h"
#include "federation/client/resource_client.h"
#include "federation/events/event_recorder.h"
#include "sync/io/dispatcher.h"
#include "sync/plan/event_key.h"
#include "sync/plan/field_diff.h"
#include "sync/plan/member_policy.h"
#include "sync/plan/override_policy.h"
#include "sync/plan/propagated_versions.h"
#include "sync/plan/server_side_apply.h"

namespace kf::sync {

using ClientLookup = std::function<Result<std::shared_ptr<RestClient>>(const std::string& cluster)>;

// What every operation on one federated object's member objects needs. Shared (read-only) by
// the operations of one reconcile, which may run on several threads at once.
struct MemberObjectContext {
  ObjectPtr federated;  // the federated object being reconciled
  core::ApiResource target_type;
  GroupVersionResource target_resource;
  QualifiedName target;               // the member objects' name
  ClusterVersions recorded_versions;  // versions recorded for the current hashes
  // Why the hashes, hence the recorded versions, could not be computed ("" when they could):
  // updates then fail with VersionRetrievalFailed.
  std::string version_error;
  // For a Namespace target: the UID of the host cluster's own Namespace of that name ("" when
  // the host has none), to recognise the host among the members.
  std::string host_namespace_uid;
  bool skip_adopting = false;  // KubeFedConfig adoptResources: Disabled
  MemberPolicy policy;         // KubeFed's unless the object or its type opts in
  // The override policies' patches per cluster (override_policy.h); null: none (KubeFed's).
  std::shared_ptr<const PolicyPatches> policy_patches;
  ClientLookup client;
  EventRecorderPtr recorder;  // null: events are logged instead
  Clock* clock = nullptr;     // times dispatch_operation_duration_seconds; required

  // Staged rollout (sync/plan/rollout_plan.h): clusters that are sent another template than the
  // federated object's (the previous one), as a copy of the federated object carrying it.
  std::map<std::string, ObjectPtr> federated_for_cluster;

  bool isHostNamespace(const Json& cluster_object) const;
  // The override-policy patches of `cluster`, or null when there are none.
  const std::vector<PolicyPatch>* policyPatchesFor(const std::string& cluster) const;
  // The federated object whose template `cluster` gets.
  const Json& federatedFor(const std::string& cluster) const;
};

using ContextPtr = std::shared_ptr<const MemberObjectContext>;

// What an update of a member object comes to, decided before anything is written (spec §2.5.6
// Update): the reconcile's update operation acts on it, and `kubefedctl plan` reports it.
struct UpdateDecision {
  // kOk, or the status recorded instead of writing: ManagedLabelFalse, ComputeResourceFailed,
  // FieldRetentionFailed, ApplyOverridesFailed, VersionRetrievalFailed; `error` says why.
  PropagationStatus failure = PropagationStatus::kOk;
  std::string error;
  // The member drifted from the version recorded for it (or none is recorded for the current
  // hashes): `desired` is written (unless the drift policy says otherwise, drift.h).
  bool write = false;
  // A drift policy that reports: the fields that drifted, to report (empty: none).
  std::vector<FieldDifference> drift;
  // Nothing is written, but the member's version is recorded (a change that is not drift).
  bool record_member_version = false;
  // ServerSide: `desired` is the apply patch, without the fields other managers own there
  // (`yielded`, reported as FieldOwnedElsewhere).
  bool server_side = false;
  std::vector<OwnedField> yielded;
  // ServerSide: some field differs, and who owns it is needed to decide: decide again on the
  // member object as its API server returns it (the cache leaves managedFields out).
  bool needs_managed_fields = false;
  Json desired;  // the object for the cluster, once computed (retention and overrides applied)
  bool dropped_annotations = false;  // template fields dropped (Warning events)
  bool dropped_finalizers = false;

  bool ok() const { return failure == PropagationStatus::kOk; }
};

// Decides the update of `cluster_object` in `cluster`. Pure: reads `context`'s federated object,
// type, recorded versions, version error and member policy only.
// `has_managed_fields`: `cluster_object` was read from the API server, not from the cache.
UpdateDecision decideUpdate(const MemberObjectContext& context, const std::string& cluster,
                            const Json& cluster_object, bool has_managed_fields = false);

// A create found `existing` in the way (the cache did not hold it: it lacks the managed label):
// the operation adopts it by updating it, unless adoption is disabled (status AlreadyExists);
// the host cluster's own namespace is always adopted.
bool adoptsExisting(const MemberObjectContext& context, const Json& existing);

void createInCluster(const ContextPtr& context, OperationReport& report);
void updateInCluster(const ContextPtr& context, const Json& cluster_object,
                     OperationReport& report);
void deleteInCluster(const ContextPtr& context, const DeleteOptions& options,
                     OperationReport& report);
void removeManagedLabelInCluster(const ContextPtr& context, OperationReport& report);

// Warning events with reason = the status name, as KubeFed records cluster errors that need no
// operation (ClusterNotReady: "Cluster not ready", ManagedLabelFalse, CachedRetrievalFailed).
void recordClusterError(const MemberObjectContext& context, PropagationStatus status,
                        const std::string& message);

// "Unable to manage the object which has label kubefed.io/managed: false"
std::string managedLabelFalseMessage();

}  // namespace kf::sync
