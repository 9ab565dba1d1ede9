#pragma once
// What a federated object's status says about each member cluster and overall (spec §2.5.8).
// The names are written to status.clusters[].status and conditions[].reason; they must match
// KubeFed's exactly.

#include <optional>
#include <string_view>

namespace kf::sync {

enum class PropagationStatus {
  kOk,  // written as "" (and then omitted)
  kWaitingForRemoval,
  kClusterNotReady,
  kCachedRetrievalFailed,
  kComputeResourceFailed,
  kApplyOverridesFailed,
  kCreationFailed,
  kUpdateFailed,
  kDeletionFailed,
  kLabelRemovalFailed,
  kRetrievalFailed,
  kAlreadyExists,
  kFieldRetentionFailed,
  kVersionRetrievalFailed,
  kClientRetrievalFailed,
  kManagedLabelFalse,
  kCreationTimedOut,
  kUpdateTimedOut,
  kDeletionTimedOut,
  kLabelRemovalTimedOut,
  // Ours, only with the drift policy ReportOnly: the member object drifted and is left so.
  kDrifted,
  // Ours, only for a workload that references objects following it (placement-follows): its
  // creation in the cluster waits until they are propagated there (dependency_order.h).
  kWaitingForDependencies,
};

enum class AggregateReason {
  kSuccess,  // written as "" (and then omitted)
  kClusterRetrievalFailed,
  kComputePlacementFailed,
  kCheckClusters,
  kNamespaceNotFederated,
};

std::string_view propagationStatusName(PropagationStatus status);
std::optional<PropagationStatus> parsePropagationStatus(std::string_view name);
std::string_view aggregateReasonName(AggregateReason reason);

// Failures worth retrying with backoff: the reconcile returns Error when one remains (§2.5.8
// step 7): Creation/Update/Deletion/LabelRemoval Failed or TimedOut, and RetrievalFailed.
bool isRecoverable(PropagationStatus status);

// Each dispatched operation first records a provisional "timed out" status and replaces it
// only on failure. When every operation finished in time, the leftovers are resolved with this:
// creation and update succeeded (kOk), deletion was accepted (kWaitingForRemoval) and a label
// removal drops the cluster's entry (nullopt). Any other status is returned unchanged. After a
// timeout nothing is resolved: the statuses stay *TimedOut.
std::optional<PropagationStatus> statusAfterWait(PropagationStatus status);

}  // namespace kf::sync
