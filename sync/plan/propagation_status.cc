#include "sync/plan/propagation_status.h"

#include <array>
#include <utility>

namespace kf::sync {

namespace {

constexpr std::array<std::pair<PropagationStatus, std::string_view>, 22> kStatusNames = {{
    {PropagationStatus::kOk, ""},
    {PropagationStatus::kWaitingForRemoval, "WaitingForRemoval"},
    {PropagationStatus::kClusterNotReady, "ClusterNotReady"},
    {PropagationStatus::kCachedRetrievalFailed, "CachedRetrievalFailed"},
    {PropagationStatus::kComputeResourceFailed, "ComputeResourceFailed"},
    {PropagationStatus::kApplyOverridesFailed, "ApplyOverridesFailed"},
    {PropagationStatus::kCreationFailed, "CreationFailed"},
    {PropagationStatus::kUpdateFailed, "UpdateFailed"},
    {PropagationStatus::kDeletionFailed, "DeletionFailed"},
    {PropagationStatus::kLabelRemovalFailed, "LabelRemovalFailed"},
    {PropagationStatus::kRetrievalFailed, "RetrievalFailed"},
    {PropagationStatus::kAlreadyExists, "AlreadyExists"},
    {PropagationStatus::kFieldRetentionFailed, "FieldRetentionFailed"},
    {PropagationStatus::kVersionRetrievalFailed, "VersionRetrievalFailed"},
    {PropagationStatus::kClientRetrievalFailed, "ClientRetrievalFailed"},
    {PropagationStatus::kManagedLabelFalse, "ManagedLabelFalse"},
    {PropagationStatus::kCreationTimedOut, "CreationTimedOut"},
    {PropagationStatus::kUpdateTimedOut, "UpdateTimedOut"},
    {PropagationStatus::kDeletionTimedOut, "DeletionTimedOut"},
    {PropagationStatus::kLabelRemovalTimedOut, "LabelRemovalTimedOut"},
    {PropagationStatus::kDrifted, "Drifted"},
    {PropagationStatus::kWaitingForDependencies, "WaitingForDependencies"},
}};

}  // namespace

std::string_view propagationStatusName(PropagationStatus status) {
  for (const auto& [value, name] : kStatusNames) {
    if (value == status) return name;
  }
  return "";
}

std::optional<PropagationStatus> parsePropagationStatus(std::string_view name) {
  for (const auto& [value, known] : kStatusNames) {
    if (known == name) return value;
  }
  return std::nullopt;
}

std::string_view aggregateReasonName(AggregateReason reason) {
  switch (reason) {
    case AggregateReason::kSuccess:
      return "";
    case AggregateReason::kClusterRetrievalFailed:
      return "ClusterRetrievalFailed";
    case AggregateReason::kComputePlacementFailed:
      return "ComputePlacementFailed";
    case AggregateReason::kCheckClusters:
      return "CheckClusters";
    case AggregateReason::kNamespaceNotFederated:
      return "NamespaceNotFederated";
  }
  return "";
}

bool isRecoverable(PropagationStatus status) {
  switch (status) {
    case PropagationStatus::kCreationFailed:
    case PropagationStatus::kUpdateFailed:
    case PropagationStatus::kDeletionFailed:
    case PropagationStatus::kLabelRemovalFailed:
    case PropagationStatus::kRetrievalFailed:
    case PropagationStatus::kCreationTimedOut:
    case PropagationStatus::kUpdateTimedOut:
    case PropagationStatus::kDeletionTimedOut:
    case PropagationStatus::kLabelRemovalTimedOut:
      return true;
    default:
      return false;
  }
}

std::optional<PropagationStatus> statusAfterWait(PropagationStatus status) {
  switch (status) {
    case PropagationStatus::kCreationTimedOut:
    case PropagationStatus::kUpdateTimedOut:
      return PropagationStatus::kOk;
    case PropagationStatus::kDeletionTimedOut:
      return PropagationStatus::kWaitingForRemoval;
    case PropagationStatus::kLabelRemovalTimedOut:
      return std::nullopt;
    default:
      return status;
  }
}

}  // namespace kf::sync
