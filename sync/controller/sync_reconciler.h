#pragma once
// The sync controller's reconcile of one queue key (spec §2.5.2, §2.5.3): map the key to its
// federated object, then release orphans, finish a deletion, or ensure the finalizer and run a
// propagation pass.

#include <functional>
#include <string>
#include <utility>

#include "federation/controller/reconciler.h"
#include "sync/controller/sync_context.h"

namespace kf::sync {

// `synced` tells whether every cache the reconcile reads is complete (§2.5.1 isSynced).
ReconcileResult reconcileKey(SyncContext& context, const std::string& key,
                             const std::function<bool()>& synced);

// reconcileKey as the controller runtime's Reconciler; `context` must outlive it.
class SyncReconciler final : public Reconciler {
 public:
  SyncReconciler(SyncContext& context, std::function<bool()> synced)
      : context_(context), synced_(std::move(synced)) {}
  ReconcileResult reconcile(const std::string& key) override {
    return reconcileKey(context_, key, synced_);
  }

 private:
  SyncContext& context_;
  std::function<bool()> synced_;
};

}  // namespace kf::sync
