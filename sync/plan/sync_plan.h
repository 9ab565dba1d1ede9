#pragma once
// The decisions of a sync reconcile, apart from its reads and writes: a reconcile observes (a
// SyncObservation: each known cluster's readiness and what its cache holds of the object),
// decides with the pure functions here (per-cluster steps, each with its reason), then acts
// (dispatches the steps, records the versions written, writes the status once).
//
// planPropagation decides for an object that is being propagated (spec §2.5.3 step 4),
// planDeletion for one being deleted (§2.5.9 step 3), planRelease for member objects whose
// federated object is gone or orphans them (§2.5.2, §2.5.9).

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "apis/meta/object.h"
#include "sync/plan/operation_kind.h"
#include "sync/plan/propagation_status.h"

namespace kf::sync {

// One known member cluster as the reconcile saw it.
struct ClusterObservation {
  std::string name;
  bool ready = false;
  // Only for ready clusters: the cached member object (null when the cache holds none), or why
  // the cache could not be read.
  ObjectPtr object;
  std::optional<std::string> cache_error;
  // The object is the host cluster's own Namespace (a Namespace target whose UID is the host's):
  // it is released, never deleted.
  bool host_namespace = false;
};

struct SyncObservation {
  std::vector<ClusterObservation> clusters;  // every known cluster, in the registry's order
  std::set<std::string> placement;           // the clusters the object is placed in
};

// What one cluster gets: an operation to dispatch, or a status recorded without one.
struct ClusterStep {
  std::string cluster;
  std::optional<OperationKind> operation;
  std::optional<PropagationStatus> status;  // set when `operation` is not
  ObjectPtr object;                         // the cached member object the step concerns
  std::string reason;                       // why, for logs, events and tests

  bool operator==(const ClusterStep&) const = default;
};

// Per cluster: unready placed -> ClusterNotReady;
// unreadable cache -> CachedRetrievalFailed; placed -> create (absent) or update (present); not
// placed and present -> WaitingForRemoval (already being deleted), remove the managed label (the
// host's own namespace) or delete. Clusters that need nothing get no step.
std::vector<ClusterStep> planPropagation(const SyncObservation& observed);

struct DeletionPlan {
  std::vector<ClusterStep> steps;  // only operations
  // Member objects still present (being deleted or about to be), the host's own namespace being
  // deleted by the host excepted: the deletion is finished when none remain.
  int remaining = 0;
  std::vector<std::string> unready;       // clusters that block the deletion
  std::vector<std::string> cache_errors;  // "<cluster>: <why>"
};

// Every ready cluster's object not yet being deleted is deleted (the host's own namespace is
// unlabeled instead); placement plays no part.
DeletionPlan planDeletion(const SyncObservation& observed);

// Removes the managed label from every cached object that has it and is not being deleted.
std::vector<ClusterStep> planRelease(const SyncObservation& observed);

}  // namespace kf::sync
