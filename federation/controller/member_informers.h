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

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "federation/cluster/cluster_registry.h"
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

class MemberInformers {
 public:
  // Called with the key ("ns/name" or "name") of every member object that was added, deleted or
  // changed, on a dispatch pool thread; it must be quick.
  using ObjectCallback = std::function<void(const std::string& key)>;

  MemberInformers(MemberInformersOptions options, InformerManager& informers,
                  ClusterRegistry& clusters, Clock& clock, ObjectCallback on_object);
  // stop().
  ~MemberInformers();
  MemberInformers(const MemberInformers&) = delete;
  MemberInformers& operator=(const MemberInformers&) = delete;

  // Subscribes to the registry and leases informers for the clusters ready now.
  void start() KF_EXCLUDES(mu_);
  // Unsubscribes, cancels the queued work, waits for the work in progress and releases every
  // lease; no work runs after it returns. Idempotent; must not be called from the work itself.
  void stop() KF_EXCLUDES(mu_);

  // An informer is leased and synced for exactly the clusters the registry calls ready now.
  bool synced() const KF_EXCLUDES(mu_);

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

  const MemberInformersOptions options_;
  InformerManager& informers_;
  ClusterRegistry& clusters_;
  Clock& clock_;
  const ObjectCallback on_object_;

  mutable Mutex mu_;
  std::map<std::string, InformerLease> leases_ KF_GUARDED_BY(mu_);
  TimerHandlePtr retry_timer_ KF_GUARDED_BY(mu_);
  bool started_ KF_GUARDED_BY(mu_) = false;
  bool stopping_ KF_GUARDED_BY(mu_) = false;
  std::optional<ListenerId> listener_ KF_GUARDED_BY(mu_);
  // Runs the work one item at a time, in the order it was posted.
  TaskLane lane_{memberIoPool()};
};

}  // namespace kf
