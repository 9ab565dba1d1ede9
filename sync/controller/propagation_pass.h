#pragma once
// One propagation pass of a federated object that is not being deleted (spec §2.5.3 step 4), as
// observe -> decide -> act -> one status write: observe its placement and what each cluster's
// cache holds, decide per cluster with planPropagation (create / update / delete / unlabel /
// report), dispatch the operations in parallel within the shared deadline, record the versions
// written, and write the federated status once.

#include "federation/controller/reconciler.h"
#include "sync/controller/sync_context.h"
#include "sync/plan/event_key.h"

namespace kf::sync {

// `federated_object` carries the sync finalizer already; `federated_namespace` is the
// FederatedNamespace of its namespace (namespaced targets; null when absent or not relevant).
ReconcileResult propagate(SyncContext& context, const Json& federated_object,
                          const ResolvedEventKey& names, const Json* federated_namespace);

}  // namespace kf::sync
