#include "sync/cluster_executors.h"

#include <algorithm>
#include <utility>

namespace kf {

ClusterExecutors::ClusterExecutors(int threads_per_cluster)
    : threads_per_cluster_(static_cast<std::size_t>(std::max(1, threads_per_cluster))) {}

ClusterExecutors::~ClusterExecutors() { stop(); }

void ClusterExecutors::submit(const std::string& cluster, ClusterTask task) {
  {
    MutexLock lock(mu_);
    if (!stopped_) {
      Lane& lane = lanes_[cluster];
      lane.queue.push_back(std::move(task));
      // A new thread only when every existing one is busy: a quiet cluster keeps one thread.
      if (lane.idle < lane.queue.size() && lane.threads.size() < threads_per_cluster_) {
        lane.threads.emplace_back([this, cluster] { runLane(cluster); });
      } else {
        work_cv_.notify_all();
      }
      return;
    }
  }
  task(true);
}

void ClusterExecutors::runLane(const std::string& cluster) {
  while (true) {
    ClusterTask task;
    {
      MutexLock lock(mu_);
      Lane& lane = lanes_[cluster];
      ++lane.idle;
      work_cv_.wait(lock.native(),
                    [&]() KF_REQUIRES(mu_) { return stopped_ || !lane.queue.empty(); });
      --lane.idle;
      if (stopped_) {
        return;
      }
      task = std::move(lane.queue.front());
      lane.queue.pop_front();
    }
    task(false);
  }
}

void ClusterExecutors::stop() {
  std::vector<ClusterTask> cancelled;
  std::vector<std::jthread> threads;
  {
    MutexLock lock(mu_);
    if (stopped_) {
      return;
    }
    stopped_ = true;
    for (auto& [name, lane] : lanes_) {
      for (auto& task : lane.queue) {
        cancelled.push_back(std::move(task));
      }
      lane.queue.clear();
      for (auto& thread : lane.threads) {
        threads.push_back(std::move(thread));
      }
      lane.threads.clear();
    }
    work_cv_.notify_all();
  }
  for (auto& task : cancelled) {
    task(true);
  }
  threads.clear();  // joins: running tasks finish first
}

std::size_t ClusterExecutors::threadCount(const std::string& cluster) const {
  MutexLock lock(mu_);
  auto it = lanes_.find(cluster);
  return it == lanes_.end() ? 0 : it->second.threads.size();
}

}  // namespace kf
