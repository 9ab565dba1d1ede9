#pragma once
// A per-type controller's view of the target objects in member clusters (spec §2.2 "federated
// informer", §2.5.1): one shared informer per READY cluster on the target type, limited to
// kubefed.io/managed=true and to the target namespace. The informers come from the member
// InformerManager, so the sync and status controllers of one type share them.
//
// Leases follow the ClusterRegistry: a cluster that becomes ready gets one, a cluster that stops
// being ready or goes away loses it, and a cluster whose spec or labels changed gets a fresh
// one. Acquiring and releasing may block (starting and stopping informers), so registry
// notifications are handled one at a time, in order, on a lane of the process's member I/O pool,
// never on the registry writer's thread; no thread belongs to this class.
//
// As a controller's source it reports each added, deleted or changed member object (the keys its
// handler names, e.g. the object's own); stopping it keeps the leased caches readable, and they
// are released when it is destroyed.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "federation/cluster/cluster_registry.h"
#include "federation/controller/source.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

struct MemberInformersOptions {
  GroupVersionResource target;
  std::string target_namespace;  // "" = all namespaces
  // A cluster whose informer could not be acquired is tried again after this long.
  Duration acquire_retry_delay = std::chrono::seconds(5);
};

class MemberInformers final : public Source {
 public:
  // Leases and releases run on a lane of `pool` (the member I/O pool), which must outlive this.
  MemberInformers(MemberInformersOptions options, InformerManager& informers,
                  ClusterRegistry& clusters, Clock& clock, TaskPool& pool);
  // stop(), then releases every lease.
  ~MemberInformers() override;
  MemberInformers(const MemberInformers&) = delete;
  MemberInformers& operator=(const MemberInformers&) = delete;

  // Subscribes to the registry and leases informers for the clusters ready now; their events
  // (handled on a dispatch pool thread) queue into `target` what `handler` names.
  void start(EnqueueTarget& target, Handler handler) override KF_EXCLUDES(mu_);
  // Unsubscribes, cancels the queued work, waits for the work in progress and removes the
  // handlers; no work runs and no event is handled after it returns. The leased caches stay
  // readable. Idempotent; must not be called from the work itself.
  void stop() override KF_EXCLUDES(mu_);

  // The registry is synced (it knows every KubeFedCluster) and an informer is leased and synced
  // for exactly the clusters it calls ready now.
  bool synced() const override KF_EXCLUDES(mu_);

  // The cached object `key` in `cluster`: null when the cache does not hold it; NotFound when
  // the cluster has no informer (not ready, or not leased yet).
  Result<ObjectPtr> cached(const std::string& cluster, const std::string& key) const
      KF_EXCLUDES(mu_);

 private:
  // One unit of work for the lane: a registry event, or "look at every cluster" (start,
  // retries).
  struct Work {
    std::optional<ClusterEvent> event;
  };

  void post(Work work) KF_EXCLUDES(mu_);
  bool stopping() const KF_EXCLUDES(mu_);
  void handle(const Work& work) KF_EXCLUDES(mu_);
  // Leases or releases so that `cluster` has an informer iff it is ready in the registry.
  void converge(const std::string& cluster) KF_EXCLUDES(mu_);
  void release(const std::string& cluster) KF_EXCLUDES(mu_);
  void scheduleRetry() KF_EXCLUDES(mu_);

  struct Leased {
    InformerLease lease;
    HandlerId handler;
  };

  const MemberInformersOptions options_;
  InformerManager& informers_;
  ClusterRegistry& clusters_;
  Clock& clock_;

  mutable Mutex mu_;
  // Set by start(): what every leased informer's events are handed to.
  std::function<void(const Json& object, Priority priority)> on_object_ KF_GUARDED_BY(mu_);
  UpdateFilter update_filter_ KF_GUARDED_BY(mu_);
  std::map<std::string, Leased> leases_ KF_GUARDED_BY(mu_);
  TimerHandlePtr retry_timer_ KF_GUARDED_BY(mu_);
  bool started_ KF_GUARDED_BY(mu_) = false;
  bool stopping_ KF_GUARDED_BY(mu_) = false;
  std::optional<ListenerId> listener_ KF_GUARDED_BY(mu_);
  // Runs the work one item at a time, in the order it was posted.
  TaskLane lane_;
};

}  // namespace kf
