#pragma once
// The four things a reconcile can do to a member object (spec §2.5.6). The plan decides which;
// the dispatcher (sync/io) runs them.

#include "sync/plan/propagation_status.h"

namespace kf::sync {

enum class OperationKind { kCreate, kUpdate, kDelete, kRemoveManagedLabel };

// The status a cluster holds while an operation of this kind has not finished.
PropagationStatus provisionalStatus(OperationKind kind);

}  // namespace kf::sync
