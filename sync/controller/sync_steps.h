#pragma once
// The reads and writes around the pure plans of sync_plan.h: observing what the member clusters'
// caches hold of one object, and dispatching the planned steps.

#include <memory>
#include <vector>

#include "sync/controller/sync_context.h"
#include "sync/io/dispatcher.h"
#include "sync/io/member_operations.h"
#include "sync/plan/delete_options.h"
#include "sync/plan/sync_plan.h"

namespace kf::sync {

// The readiness of each of `clusters` (one registry snapshot per reconcile) and, for the ready
// ones, what its cache holds of `members`' target. Placement is left to the caller.
SyncObservation observeClusters(const SyncContext& context,
                                const std::vector<ClusterSnapshot>& clusters,
                                const MemberObjectContext& members);

// Starts each step's operation on its cluster's executor, or records its status (a
// WaitingForRemoval status carries the member object's status). Records no events. Returns how
// many operations were started.
int dispatchSteps(const std::vector<ClusterStep>& steps,
                  const std::shared_ptr<MemberObjectContext>& members,
                  const DeleteOptions& delete_options, Dispatcher& dispatcher);

}  // namespace kf::sync
