#pragma once
// The sync controller's reconcile of one queue key (spec §2.5.2, §2.5.3): map the key to its
// federated object, then release orphans, finish a deletion, or ensure the finalizer and run a
// propagation pass.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "federation/controller/member_informers.h"
#include "federation/controller/reconciler.h"
#include "sync/controller/follower_directory.h"
#include "sync/controller/host_informers.h"
#include "sync/controller/override_policies.h"
#include "sync/controller/sync_context.h"
#include "sync/controller/sync_controller.h"
#include "sync/io/cluster_executors.h"
#include "sync/io/version_manager.h"

namespace kf::sync {

// `synced` tells whether every cache the reconcile reads is complete (§2.5.1 isSynced).
ReconcileResult reconcileKey(SyncContext& context, const std::string& key,
                             const std::function<bool()>& synced);

// reconcileKey as the controller runtime's Reconciler, over the parts one type's reconciles share,
// which it owns: the host informers' leases, the version manager (loaded on a thread of its own
// from construction on, while the informers list: the first reconcile needs both), the executors
// of member operations, and the events recorder. `members` must outlive it.
class SyncReconciler final : public Reconciler {
 public:
  // `policies`: the type's override policies (null: none, KubeFed's behaviour).
  SyncReconciler(SyncTypeInfo type, SyncControllerDeps deps, std::unique_ptr<HostInformers> host,
                 MemberInformers& members, std::unique_ptr<OverridePolicies> policies = nullptr);
  // Joins the version loader and releases the host informers.
  ~SyncReconciler() override;
  SyncReconciler(const SyncReconciler&) = delete;
  SyncReconciler& operator=(const SyncReconciler&) = delete;

  ReconcileResult reconcile(const std::string& key) override;
  // Cancels the member operations (waiting for the running ones); reconciles write nothing more.
  void cancel() override;

  const HostInformers& host() const { return *host_; }
  // Null when the controller has none.
  const OverridePolicies* overridePolicies() const { return policies_.get(); }
  // The workloads objects of this type may follow; null for a kind no pod template references.
  WorkloadFollowers* workloadFollowers() const { return followers_.get(); }
  // Which updates of a federated object queue it: those that changed it, except the echo of a
  // write whose reconcile went on with what it wrote. Valid while the reconciler lives.
  UpdateFilter federatedUpdateFilter();
  // How long after a change of a member object its key is queued: KubeFed's `retry_delay`,
  // which also spaces out a fight with another writer of the object; none for a federated object
  // whose policy never writes back what another writer changed (drift ReportOnly, apply
  // ServerSide), so that a drift is reported, or a yielded field seen, within a second. Valid
  // while the reconciler lives.
  std::function<Duration(const std::string& key)> memberEventDelay(Duration retry_delay);

 private:
  // Every cache a reconcile reads is complete, and the versions are loaded.
  bool synced();

  const std::string name_;  // the lower-case federated kind, for logs
  SyncControllerDeps deps_;
  std::atomic<bool> stopping_{false};
  ClusterExecutors executors_;
  VersionManager versions_;
  std::unique_ptr<HostInformers> host_;
  MemberInformers& members_;
  std::unique_ptr<OverridePolicies> policies_;
  std::shared_ptr<WorkloadFollowers> followers_;
  std::optional<FollowerDirectory::Registration> directory_entry_;
  std::unique_ptr<SyncContext> context_;
  std::optional<ListenerId> removal_listener_;
  // Joined before anything it uses goes.
  std::jthread version_loader_;
};

}  // namespace kf::sync
