#pragma once
// Runs blocking member-cluster operations on a few threads per cluster. Each cluster has its own
// queue and at most `threads_per_cluster` operations in flight, so a slow or dead cluster holds
// up only its own operations, never another cluster's. Threads are started when work arrives
// and live until the cluster is forgotten (it left the federation) or stop().

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "federation/runtime/thread_annotations.h"

namespace kf {

// A queued operation. It is called exactly once: with `cancelled` false on an executor thread,
// or with `cancelled` true when the executor stops before running it (on the stopping thread,
// or on the submitting thread when submit() comes after stop()).
using ClusterTask = std::function<void(bool cancelled)>;

class ClusterExecutors {
 public:
  explicit ClusterExecutors(int threads_per_cluster);
  // stop().
  ~ClusterExecutors();
  ClusterExecutors(const ClusterExecutors&) = delete;
  ClusterExecutors& operator=(const ClusterExecutors&) = delete;

  // Queues `task` for `cluster`.
  void submit(const std::string& cluster, ClusterTask task) KF_EXCLUDES(mu_);

  // `cluster` left: its queued tasks are cancelled (on the calling thread) and its threads end
  // once their running task returns; they are joined later, never here, so that this is quick
  // enough for a registry listener. A later submit for the name starts a new lane.
  void forget(const std::string& cluster) KF_EXCLUDES(mu_);

  // Cancels every queued task, waits for running ones to return and joins every thread. Later
  // submits are cancelled at once. Idempotent; must not be called from a task.
  void stop() KF_EXCLUDES(mu_);

  // Threads started for `cluster` so far (for tests and metrics).
  std::size_t threadCount(const std::string& cluster) const KF_EXCLUDES(mu_);

 private:
  struct Worker {
    std::jthread thread;
    std::shared_ptr<std::atomic<bool>> ended;  // set by the thread as it returns
  };
  struct Lane {
    std::deque<ClusterTask> queue;
    std::size_t idle = 0;  // threads waiting for work
    std::vector<Worker> workers;
    bool forgotten = false;
  };

  void startWorker(const std::shared_ptr<Lane>& lane) KF_REQUIRES(mu_);
  void runLane(Lane& lane) KF_EXCLUDES(mu_);
  // The retired workers that have ended, taken out to be joined outside mu_.
  std::vector<Worker> takeEndedRetired() KF_REQUIRES(mu_);

  const std::size_t threads_per_cluster_;
  mutable Mutex mu_;
  std::condition_variable work_cv_;
  std::map<std::string, std::shared_ptr<Lane>> lanes_ KF_GUARDED_BY(mu_);
  std::vector<Worker> retired_ KF_GUARDED_BY(mu_);  // of forgotten lanes, not joined yet
  bool stopped_ KF_GUARDED_BY(mu_) = false;
};

}  // namespace kf
