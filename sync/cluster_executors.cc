#include "sync/cluster_executors.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace kf {

ClusterExecutors::ClusterExecutors(int threads_per_cluster)
    : threads_per_cluster_(static_cast<std::size_t>(std::max(1, threads_per_cluster))) {}

ClusterExecutors::~ClusterExecutors() { stop(); }

void ClusterExecutors::submit(const std::string& cluster, ClusterTask task) {
  std::vector<Worker> ended;  // joined after the lock
  {
    MutexLock lock(mu_);
    if (!stopped_) {
      ended = takeEndedRetired();
      std::shared_ptr<Lane>& lane = lanes_[cluster];
      if (!lane) lane = std::make_shared<Lane>();
      lane->queue.push_back(std::move(task));
      // A new thread only when every existing one is busy: a quiet cluster keeps one thread.
      if (lane->idle < lane->queue.size() && lane->workers.size() < threads_per_cluster_) {
        startWorker(lane);
      } else {
        work_cv_.notify_all();
      }
      return;
    }
  }
  task(true);
}

void ClusterExecutors::startWorker(const std::shared_ptr<Lane>& lane) {
  auto ended = std::make_shared<std::atomic<bool>>(false);
  lane->workers.push_back(Worker{std::jthread([this, lane, ended] {
                                   runLane(*lane);
                                   *ended = true;
                                 }),
                                 ended});
}

void ClusterExecutors::runLane(Lane& lane) {
  while (true) {
    ClusterTask task;
    {
      MutexLock lock(mu_);
      ++lane.idle;
      work_cv_.wait(lock.native(), [&]() KF_REQUIRES(mu_) {
        return stopped_ || lane.forgotten || !lane.queue.empty();
      });
      --lane.idle;
      if (stopped_ || lane.forgotten) {
        return;
      }
      task = std::move(lane.queue.front());
      lane.queue.pop_front();
    }
    task(false);
  }
}

void ClusterExecutors::forget(const std::string& cluster) {
  std::deque<ClusterTask> cancelled;
  std::vector<Worker> ended;
  {
    MutexLock lock(mu_);
    auto it = lanes_.find(cluster);
    if (it == lanes_.end()) return;
    Lane& lane = *it->second;
    lane.forgotten = true;
    cancelled.swap(lane.queue);
    for (Worker& worker : lane.workers) retired_.push_back(std::move(worker));
    lane.workers.clear();
    lanes_.erase(it);
    ended = takeEndedRetired();
    work_cv_.notify_all();
  }
  for (auto& task : cancelled) {
    task(true);
  }
}

std::vector<ClusterExecutors::Worker> ClusterExecutors::takeEndedRetired() {
  std::vector<Worker> ended;
  auto still_running = std::partition(retired_.begin(), retired_.end(),
                                      [](const Worker& worker) { return !*worker.ended; });
  std::move(still_running, retired_.end(), std::back_inserter(ended));
  retired_.erase(still_running, retired_.end());
  return ended;
}

void ClusterExecutors::stop() {
  std::vector<ClusterTask> cancelled;
  std::vector<Worker> workers;
  {
    MutexLock lock(mu_);
    if (stopped_) {
      return;
    }
    stopped_ = true;
    for (auto& [name, lane] : lanes_) {
      for (auto& task : lane->queue) {
        cancelled.push_back(std::move(task));
      }
      lane->queue.clear();
      for (Worker& worker : lane->workers) workers.push_back(std::move(worker));
      lane->workers.clear();
    }
    for (Worker& worker : retired_) workers.push_back(std::move(worker));
    retired_.clear();
    work_cv_.notify_all();
  }
  for (auto& task : cancelled) {
    task(true);
  }
  workers.clear();  // joins: running tasks finish first
}

std::size_t ClusterExecutors::threadCount(const std::string& cluster) const {
  MutexLock lock(mu_);
  auto it = lanes_.find(cluster);
  return it == lanes_.end() ? 0 : it->second->workers.size();
}

}  // namespace kf
