#pragma once
// Runs blocking member-cluster operations on a shared TaskPool (the member I/O pool in
// production), through one lane per cluster: each cluster has its own queue and at most
// `per_cluster_limit` operations in flight, and a cluster's lanes of every federated type (each
// type has its executors) share the pool's budget for that cluster name, half its threads, so a
// slow or dead cluster holds up only its own operations, never another cluster's. No thread
// belongs to a cluster: the process's thread count does not grow with the fleet.

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

// A queued operation. It is called exactly once: with `cancelled` false on a pool thread, or
// with `cancelled` true when the executors stop (or the cluster is forgotten) before it runs (on
// the stopping or forgetting thread), or on the submitting thread when submit() comes after
// stop().
using ClusterTask = LaneTask;

class ClusterExecutors {
 public:
  // `pool` and `clock` must outlive this.
  ClusterExecutors(TaskPool& pool, int per_cluster_limit, Clock& clock = realClock());
  // stop().
  ~ClusterExecutors();
  ClusterExecutors(const ClusterExecutors&) = delete;
  ClusterExecutors& operator=(const ClusterExecutors&) = delete;

  // Queues `task` for `cluster`.
  void submit(const std::string& cluster, ClusterTask task) KF_EXCLUDES(mu_);

  // `cluster` left: its queued tasks are cancelled (on the calling thread) and its lane goes. Its
  // running tasks are not waited for, so that this is quick enough for a registry listener; they
  // finish on their own, and stop() waits for them. A later submit for the name starts a new
  // lane.
  void forget(const std::string& cluster) KF_EXCLUDES(mu_);

  // Cancels every queued task and waits for the running ones, of forgotten clusters too, to
  // return. Later submits are cancelled at once. Idempotent; must not be called from a task.
  void stop() KF_EXCLUDES(mu_);

  // Tasks of `cluster`'s current lane running now (for tests and metrics).
  std::size_t running(const std::string& cluster) const KF_EXCLUDES(mu_);

  // True when one of `cluster`'s tasks has been running for `quiet` or longer and none of its
  // tasks has returned within `quiet`: its server takes requests and answers none (frozen,
  // overloaded), so whoever waits for its tasks is better off not waiting.
  bool unresponsive(const std::string& cluster, Duration quiet) const KF_EXCLUDES(mu_);

 private:
  using LanePtr = std::shared_ptr<TaskLane>;

  // The pool's threads run every task through this, so that a profile can tell member
  // operations from the pool's other work.
  static void runTask(const ClusterTask& task, bool cancelled);
  // Drops the forgotten lanes whose last task has returned.
  void pruneForgottenLocked() KF_REQUIRES(mu_);
  // What unresponsive() reads: a task's start, and its return.
  SteadyTime markStarted(const std::string& cluster) KF_EXCLUDES(mu_);
  void markReturned(const std::string& cluster, SteadyTime started) KF_EXCLUDES(mu_);

  // A cluster's tasks as unresponsive() sees them.
  struct Activity {
    std::multiset<SteadyTime> running_since;
    std::optional<SteadyTime> last_return;
  };

  TaskPool& pool_;
  const std::size_t per_cluster_limit_;
  Clock& clock_;
  mutable Mutex mu_;
  std::map<std::string, LanePtr> lanes_ KF_GUARDED_BY(mu_);
  std::map<std::string, Activity> activity_ KF_GUARDED_BY(mu_);
  // Lanes of forgotten clusters, closed, whose tasks may still run: stop() waits for them.
  std::vector<LanePtr> forgotten_ KF_GUARDED_BY(mu_);
  bool stopped_ KF_GUARDED_BY(mu_) = false;
};

}  // namespace kf
