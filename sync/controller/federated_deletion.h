#pragma once
// What happens to member objects when their federated object goes away.
//
// ensureDeletion (spec §2.5.9): a federated object being deleted keeps the sync finalizer until
// its member objects are gone from every cluster (deleted with the kubefed.io/deleteoption
// options) -- or, with kubefed.io/orphan: "true", it drops the finalizer at once and its member
// objects stay, only unlabeled. Any unready cluster blocks the deletion (KubeFed's limitation).
//
// releaseOrphans (spec §2.5.2): member objects still labeled managed whose federated object no
// longer exists lose the label in every ready cluster.

#include <string_view>

#include "federation/controller/reconciler.h"
#include "sync/controller/sync_context.h"
#include "sync/plan/event_key.h"

namespace kf::sync {

// The finalizer the sync controller keeps on every federated object it propagates.
inline constexpr std::string_view kSyncControllerFinalizer = "kubefed.io/sync-controller";

ReconcileResult ensureDeletion(SyncContext& context, const Json& federated_object,
                               const ResolvedEventKey& names);

ReconcileResult releaseOrphans(SyncContext& context, const QualifiedName& target);

// Sets the sync finalizer on the federated object (merge patch guarded by resourceVersion);
// returns the object as the server stored it, or as given when it already had the finalizer.
Result<Json> ensureFinalizer(const SyncContext& context, const Json& federated_object);

}  // namespace kf::sync
