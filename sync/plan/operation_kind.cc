#include "sync/plan/operation_kind.h"

namespace kf::sync {

PropagationStatus provisionalStatus(OperationKind kind) {
  switch (kind) {
    case OperationKind::kCreate:
      return PropagationStatus::kCreationTimedOut;
    case OperationKind::kUpdate:
      return PropagationStatus::kUpdateTimedOut;
    case OperationKind::kDelete:
      return PropagationStatus::kDeletionTimedOut;
    case OperationKind::kRemoveManagedLabel:
      return PropagationStatus::kLabelRemovalTimedOut;
  }
  return PropagationStatus::kCreationTimedOut;
}

}  // namespace kf::sync
