#pragma once
// Writes a reconcile's outcome to the federated object's status (spec §2.5.8 step 6): only when
// computeFederatedStatus says it changed, as a status-subresource PUT; a Conflict re-reads the
// object and computes again.

#include "federation/client/resource_client.h"
#include "federation/runtime/clock.h"
#include "sync/io/written_objects.h"
#include "sync/plan/federated_status.h"

namespace kf::sync {

// Returns the computed update (its `reason` and `retry_recoverable` drive the reconcile's
// result). A federated object deleted meanwhile is not an error. The object the server returns
// for a write is recorded in `written` (when given), for reconciles that start before the host
// cache shows it.
Result<FederatedStatusUpdate> writeFederatedStatus(ResourceClient& federated_objects,
                                                   Json federated_object,
                                                   const PropagationOutcome& outcome, Clock& clock,
                                                   WrittenObjects* written = nullptr,
                                                   int max_attempts = 5);

}  // namespace kf::sync
