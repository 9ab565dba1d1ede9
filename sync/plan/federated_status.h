#pragma once
// The status the sync controller writes on a federated object after a reconcile (spec §2.5.8):
//
//   status:
//     observedGeneration: <metadata.generation>
//     conditions: [{type: Propagation, status: "True"|"False", reason?, lastUpdateTime,
//                   lastTransitionTime}]
//     clusters: [{name, status?, remoteStatus?}]
//     rollout: {strategy, phase, stage?, message?}   # beyond KubeFed: only under a strategy
//
// computeFederatedStatus is steps 1-5 of KubeFed's algorithm; `changed` is step 6 (write only
// then), except that a status equal to the stored one is not written (KubeFed writes it when
// lastUpdateTime is set to the second it already holds: a request that changes nothing). The caller
// does the write (and on Conflict re-reads and computes again) and step 7
// (`retry_recoverable`).

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "apis/meta/json_reader.h"
#include "sync/plan/propagation_status.h"

namespace kf::sync {

using WallClock = std::chrono::system_clock::time_point;

// "2006-01-02T15:04:05Z": RFC 3339 in UTC, whole seconds (truncated).
std::string formatRfc3339Seconds(WallClock time);

struct ClusterOutcome {
  PropagationStatus status = PropagationStatus::kOk;
  // The member object's .status, when raw status collection is on and it was collected. A
  // present null means "collected, but the object has no status" (QUIRK: such a cluster keeps
  // the aggregate reason at CheckClusters).
  std::optional<Json> remote_status;
};

struct NamespaceFacts {
  bool namespace_scoped_control_plane = false;  // KubeFedConfig scope Namespaced
  bool type_namespaced = false;                 // the target type is namespaced
  bool federated_namespace_exists = true;       // FederatedNamespace <ns>/<ns> is in the cache
};

struct PropagationOutcome {
  AggregateReason reason = AggregateReason::kSuccess;
  std::map<std::string, ClusterOutcome> clusters;  // every cluster that got a status this pass
  bool resources_updated = false;                  // some member object was updated
  bool raw_status_collection = false;  // FTC statusCollection Enabled and the feature gate on
  NamespaceFacts namespace_facts;
  // Beyond KubeFed: the staged rollout's summary ({strategy, phase, stage, message}, mirrored
  // from the RolloutRun, which stays the record), written as status.rollout. nullopt without a
  // strategy: then there is no status.rollout, and the status is KubeFed's.
  std::optional<Json> rollout;
};

struct FederatedStatusUpdate {
  bool changed = false;  // write `status` only when true
  Json status;           // the whole new .status
  // The reason written to the condition (after NamespaceNotFederated and CheckClusters).
  AggregateReason reason = AggregateReason::kSuccess;
  // Step 7: after a successful write (or none needed) the reconcile returns Error, to retry with
  // backoff, because some cluster has a recoverable failure (isRecoverable) while the reason
  // before the CheckClusters step was success.
  bool retry_recoverable = false;
  // The server stored the status without the rollout summary written: the federated type's CRD
  // does not declare status.rollout (one KubeFed's kubefedctl generated), so it is pruned.
  bool rollout_pruned = false;
};

// Fails when the object's current status does not have the expected shape (field paths name
// what is wrong). Numbers in remote statuses are compared and written as KubeFed's JSON round
// trip leaves them (through float64). status.clusters is ordered by cluster name.
Result<FederatedStatusUpdate> computeFederatedStatus(const Json& federated_object,
                                                     const PropagationOutcome& outcome,
                                                     WallClock now);

}  // namespace kf::sync
