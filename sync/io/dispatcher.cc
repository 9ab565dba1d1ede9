#include "sync/io/dispatcher.h"

#include <condition_variable>
#include <utility>

#include "federation/runtime/thread_annotations.h"

namespace kf::sync {

// Shared by the dispatcher, its operations and its deadline timer, any of which may outlive the
// others.
struct OperationReport::Batch {
  Mutex mu;
  std::condition_variable cv;
  int pending KF_GUARDED_BY(mu) = 0;
  std::map<std::string, int> pending_by_cluster KF_GUARDED_BY(mu);
  bool deadline_passed KF_GUARDED_BY(mu) = false;
  bool finished KF_GUARDED_BY(mu) = false;   // wait() returned: nothing changes any more
  bool cancelled KF_GUARDED_BY(mu) = false;  // an executor stopped before running one
  DispatchOutcome outcome KF_GUARDED_BY(mu);

  void operationDone(const std::string& cluster) {
    MutexLock lock(mu);
    --pending;
    if (--pending_by_cluster[cluster] == 0) {
      pending_by_cluster.erase(cluster);
    }
    cv.notify_all();
  }

  void wake() {
    MutexLock lock(mu);
    cv.notify_all();
  }
};

void OperationReport::fail(PropagationStatus status) {
  MutexLock lock(batch_->mu);
  if (!batch_->finished) {
    batch_->outcome.clusters[cluster_].status = status;
  }
}

void OperationReport::sawObject(const Json& object) {
  Json remote_status = object.is_object() ? object.value("status", Json()) : Json();
  MutexLock lock(batch_->mu);
  if (!batch_->finished) {
    batch_->outcome.clusters[cluster_].remote_status = std::move(remote_status);
  }
}

void OperationReport::recordVersion(std::string version) {
  MutexLock lock(batch_->mu);
  if (!batch_->finished) {
    batch_->outcome.versions[cluster_] = std::move(version);
  }
}

void OperationReport::markResourcesUpdated() {
  MutexLock lock(batch_->mu);
  if (!batch_->finished) {
    batch_->outcome.resources_updated = true;
  }
}

void OperationReport::continueAs(OperationKind kind) { fail(provisionalStatus(kind)); }

Dispatcher::Dispatcher(ClusterExecutors& executors, Clock& clock, Duration timeout,
                       Duration unresponsive_after)
    : executors_(executors),
      unresponsive_after_(unresponsive_after),
      batch_(std::make_shared<OperationReport::Batch>()) {
  // The destructor cancels the timers (waiting for one that is firing) before batch_ goes.
  deadline_ = clock.runAfter(timeout, [batch = batch_.get()] {
    MutexLock lock(batch->mu);
    batch->deadline_passed = true;
    batch->cv.notify_all();
  });
  if (unresponsive_after < timeout) {
    first_look_ = clock.runAfter(unresponsive_after, [batch = batch_.get()] { batch->wake(); });
    second_look_ =
        clock.runAfter(2 * unresponsive_after, [batch = batch_.get()] { batch->wake(); });
  }
}

Dispatcher::~Dispatcher() {
  deadline_.reset();
  first_look_.reset();
  second_look_.reset();
  MutexLock lock(batch_->mu);
  batch_->finished = true;  // in case wait() was never called
}

void Dispatcher::recordStatus(const std::string& cluster, PropagationStatus status,
                              std::optional<Json> remote_status) {
  MutexLock lock(batch_->mu);
  batch_->outcome.clusters[cluster] = ClusterOutcome{status, std::move(remote_status)};
}

void Dispatcher::dispatch(const std::string& cluster, OperationKind kind, Operation operation) {
  {
    MutexLock lock(batch_->mu);
    batch_->outcome.clusters[cluster] = ClusterOutcome{provisionalStatus(kind), std::nullopt};
    ++batch_->pending;
    ++batch_->pending_by_cluster[cluster];
  }
  executors_.submit(cluster,
                    [batch = batch_, cluster, operation = std::move(operation)](bool cancelled) {
                      bool skip = cancelled;
                      {
                        MutexLock lock(batch->mu);
                        batch->cancelled = batch->cancelled || cancelled;
                        // Queued behind a slow operation past the deadline: its result would be
                        // ignored anyway.
                        skip = skip || batch->finished || batch->deadline_passed;
                      }
                      if (!skip) {
                        OperationReport report(batch, cluster);
                        operation(report);
                      }
                      batch->operationDone(cluster);
                    });
}

std::vector<std::string> Dispatcher::unresponsivePendingClusters() const
    KF_NO_THREAD_SAFETY_ANALYSIS {  // called from wait() with batch_->mu held
  std::vector<std::string> clusters;
  for (const auto& [cluster, pending] : batch_->pending_by_cluster) {
    if (!executors_.unresponsive(cluster, unresponsive_after_)) {
      return {};
    }
    clusters.push_back(cluster);
  }
  return clusters;
}

DispatchOutcome Dispatcher::wait() {
  MutexLock lock(batch_->mu);
  std::vector<std::string> unresponsive;
  batch_->cv.wait(lock.native(), [&]() KF_NO_THREAD_SAFETY_ANALYSIS {
    if (batch_->pending == 0 || batch_->deadline_passed) {
      return true;
    }
    unresponsive = unresponsivePendingClusters();
    return !unresponsive.empty();
  });
  batch_->finished = true;  // operations still queued are dropped, as after the deadline
  DispatchOutcome outcome = std::move(batch_->outcome);
  outcome.timed_out = batch_->pending > 0 || batch_->cancelled;
  outcome.unresponsive = std::move(unresponsive);
  if (outcome.timed_out) {
    return outcome;
  }
  for (auto it = outcome.clusters.begin(); it != outcome.clusters.end();) {
    const std::optional<PropagationStatus> resolved = statusAfterWait(it->second.status);
    if (!resolved) {
      it = outcome.clusters.erase(it);
      continue;
    }
    it->second.status = *resolved;
    ++it;
  }
  return outcome;
}

}  // namespace kf::sync
