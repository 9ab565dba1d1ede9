#pragma once
// What the sync controller would do to each member cluster on its next pass over one federated
// object, predicted from the inputs the pass reads and with the decisions it makes
// (pass_inputs.h, sync_plan.h, decideUpdate, adoptsExisting, computeFederatedStatus), without
// writing anything. `kubefedctl plan` gathers the inputs and prints the forecast.
//
// Two differences from a live pass are inherent: the inputs are read from the API servers, not
// from the controller's caches (which may lag), and a write the server would refuse (a
// conflict, a failed admission) is predicted as succeeding.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apis/core/propagated_version.h"
#include "federation/cluster/cluster_registry.h"
#include "sync/controller/sync_context.h"
#include "sync/plan/drift.h"
#include "sync/plan/federated_status.h"
#include "sync/plan/override_policy.h"
#include "sync/plan/server_side_apply.h"
#include "sync/plan/workload_references.h"

namespace kf::sync {

struct ForecastInputs {
  SyncTypeInfo type;
  Json federated_object;
  // Namespaced targets: the FederatedNamespace of the object's namespace (nullopt: none).
  std::optional<Json> federated_namespace;
  std::vector<ClusterSnapshot> clusters;  // every KubeFedCluster: name, readiness, labels
  // Per ready cluster that was read: its object named like the target, managed or not, as the
  // API server returned it. No entry: the cluster has none.
  std::map<std::string, Json> members;
  // Per ready cluster that could not be read: why. Nothing is predicted for it.
  std::map<std::string, std::string> unreadable;
  std::optional<core::PropagatedVersionStatus> recorded;  // the stored (Cluster)PropagatedVersion
  std::string host_namespace_uid;  // Namespace targets: the host's own Namespace's UID, or ""
  WallClock now;
  // OverridePolicies of the object's namespace and ClusterOverridePolicies, as read (any kind:
  // those of other federated kinds are ignored). Empty: none, or the policy CRDs absent.
  std::vector<Json> override_policies;
  // For an object that follows its workloads (kubefed-cpp.io/placement-follows): the federated
  // workloads of its namespace, as read (those that do not reference it are ignored).
  std::vector<Json> federated_workloads;
};

enum class MemberAction {
  kNone,
  kCreate,
  kAdopt,  // a create runs into an unmanaged object of that name and updates it instead
  kUpdate,
  kDelete,
  kRemoveManagedLabel,
  kUnknown,  // the cluster could not be read
};

// "none", "create", "adopt", "update", "delete", "unlabel", "unknown".
std::string_view memberActionName(MemberAction action);
// Whether the action writes to the member cluster.
bool writesToMember(MemberAction action);

struct MemberForecast {
  std::string cluster;
  MemberAction action = MemberAction::kNone;
  // The cluster's entry in status.clusters after the pass (nullopt: none).
  std::optional<PropagationStatus> status;
  std::string reason;  // why, in words
  Json live;           // the member object as it is (null: none)
  Json desired;        // create, adopt, update: the object the controller would send
  // With a drift policy that reports: the fields the member holds unlike what the controller
  // last wrote there, as the pass would report them (drift.h).
  std::vector<DriftedField> drift;
  // kubefed-cpp.io/apply: ServerSide: `desired` is an apply patch, without the fields other
  // managers own in the member (`yielded`).
  bool server_side = false;
  std::vector<OwnedField> yielded;
  // Override policies (override_policy.h): which policy changes what in this cluster, in the
  // order they apply (before the object's own overrides), and those left out here and why.
  std::vector<PolicyPatch> policy_patches;
  std::vector<PolicyFailure> policy_failures;
};

struct PropagationForecast {
  std::vector<MemberForecast> clusters;  // sorted by cluster name; clusters left alone omitted
  // The federated object is being deleted: members are deleted or released, and no
  // propagation status is written.
  bool deleting = false;
  std::string placement_error;  // "" unless placement could not be computed
  // Override policies of the object's kind that do not validate (applied nowhere): the errors.
  std::vector<std::string> invalid_policies;
  // The object follows its workloads: set, with the workloads whose placements' union is its
  // placement (empty: none references it, it is placed nowhere).
  std::optional<std::vector<ReferencingWorkload>> followed_workloads;
  // After a propagation pass: the Propagation condition's reason and the whole new status, or
  // why it could not be computed.
  AggregateReason reason = AggregateReason::kSuccess;
  Json status;
  std::string status_error;

  int memberWrites() const;
};

PropagationForecast forecastPropagation(const ForecastInputs& inputs);

}  // namespace kf::sync
