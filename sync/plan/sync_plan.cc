#include "sync/plan/sync_plan.h"

#include "sync/plan/managed_label.h"

namespace kf::sync {

namespace {

ClusterStep operationStep(const ClusterObservation& cluster, OperationKind kind,
                          std::string reason) {
  return ClusterStep{.cluster = cluster.name,
                     .operation = kind,
                     .status = std::nullopt,
                     .object = cluster.object,
                     .reason = std::move(reason)};
}

ClusterStep statusStep(const std::string& cluster, PropagationStatus status, ObjectPtr object,
                       std::string reason) {
  return ClusterStep{.cluster = cluster,
                     .operation = std::nullopt,
                     .status = status,
                     .object = std::move(object),
                     .reason = std::move(reason)};
}

// The step of a ready cluster whose cache could be read.
std::optional<ClusterStep> readyClusterStep(const ClusterObservation& cluster, bool placed) {
  if (placed) {
    return cluster.object ? operationStep(cluster, OperationKind::kUpdate, "placed and present")
                          : operationStep(cluster, OperationKind::kCreate, "placed and absent");
  }
  if (!cluster.object) return std::nullopt;
  if (hasDeletionTimestamp(*cluster.object)) {
    return statusStep(cluster.name, PropagationStatus::kWaitingForRemoval, cluster.object,
                      "not placed and being deleted");
  }
  // The host cluster's own namespace is never deleted through federation, only released.
  if (cluster.host_namespace) {
    return operationStep(cluster, OperationKind::kRemoveManagedLabel,
                         "not placed; the host's own namespace");
  }
  return operationStep(cluster, OperationKind::kDelete, "not placed and present");
}

}  // namespace

std::vector<ClusterStep> planPropagation(const SyncObservation& observed) {
  std::vector<ClusterStep> steps;
  for (const ClusterObservation& cluster : observed.clusters) {
    const bool placed = observed.placement.contains(cluster.name);
    if (!cluster.ready) {
      if (placed) {
        steps.push_back(statusStep(cluster.name, PropagationStatus::kClusterNotReady, nullptr,
                                   "Cluster not ready"));
      }
      continue;
    }
    if (cluster.cache_error) {
      steps.push_back(
          statusStep(cluster.name, PropagationStatus::kCachedRetrievalFailed, nullptr,
                     "Failed to retrieve cached cluster object: " + *cluster.cache_error));
      continue;
    }
    if (auto step = readyClusterStep(cluster, placed)) steps.push_back(std::move(*step));
  }
  return steps;
}

DeletionPlan planDeletion(const SyncObservation& observed) {
  DeletionPlan plan;
  for (const ClusterObservation& cluster : observed.clusters) {
    if (!cluster.ready) {
      plan.unready.push_back(cluster.name);
      continue;
    }
    if (cluster.cache_error) {
      plan.cache_errors.push_back(cluster.name + ": " + *cluster.cache_error);
      continue;
    }
    if (!cluster.object) continue;
    const bool being_deleted = hasDeletionTimestamp(*cluster.object);
    if (cluster.host_namespace && being_deleted) continue;  // the host deletes it itself
    ++plan.remaining;
    if (being_deleted) continue;
    plan.steps.push_back(cluster.host_namespace
                             ? operationStep(cluster, OperationKind::kRemoveManagedLabel,
                                             "the host's own namespace is released")
                             : operationStep(cluster, OperationKind::kDelete, "present"));
  }
  return plan;
}

std::vector<ClusterStep> planRelease(const SyncObservation& observed) {
  std::vector<ClusterStep> steps;
  for (const ClusterObservation& cluster : observed.clusters) {
    if (!cluster.ready || !cluster.object) continue;
    if (hasDeletionTimestamp(*cluster.object) || !hasManagedLabel(*cluster.object)) continue;
    steps.push_back(operationStep(cluster, OperationKind::kRemoveManagedLabel, "still managed"));
  }
  return steps;
}

}  // namespace kf::sync
