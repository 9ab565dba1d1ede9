#include "sync/io/cluster_executors.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace kf {

ClusterExecutors::ClusterExecutors(TaskPool& pool, int per_cluster_limit, Clock& clock)
    : pool_(pool),
      per_cluster_limit_(static_cast<std::size_t>(std::max(1, per_cluster_limit))),
      clock_(clock) {}

ClusterExecutors::~ClusterExecutors() { stop(); }

void ClusterExecutors::runTask(const ClusterTask& task, bool cancelled) { task(cancelled); }

void ClusterExecutors::submit(const std::string& cluster, ClusterTask task) {
  LanePtr lane;
  {
    MutexLock lock(mu_);
    if (!stopped_) {
      pruneForgottenLocked();
      LanePtr& slot = lanes_[cluster];
      if (!slot) {
        slot = std::make_shared<TaskLane>(pool_, per_cluster_limit_, cluster);
      }
      lane = slot;
    }
  }
  if (!lane) {
    task(true);
    return;
  }
  // Outside mu_: a lane that forget() or stop() closed meanwhile cancels the task on this thread,
  // and the task may call back into this.
  // stop() waits for every running task before this goes, so the tasks may use it.
  lane->submit([this, cluster, task = std::move(task)](bool cancelled) {
    if (cancelled) {
      runTask(task, true);
      return;
    }
    const SteadyTime started = markStarted(cluster);
    runTask(task, false);
    markReturned(cluster, started);
  });
}

SteadyTime ClusterExecutors::markStarted(const std::string& cluster) {
  const SteadyTime now = clock_.now();
  MutexLock lock(mu_);
  activity_[cluster].running_since.insert(now);
  return now;
}

void ClusterExecutors::markReturned(const std::string& cluster, SteadyTime started) {
  const SteadyTime now = clock_.now();
  MutexLock lock(mu_);
  auto it = activity_.find(cluster);
  if (it == activity_.end()) {
    return;  // forgotten meanwhile
  }
  if (auto since = it->second.running_since.find(started);
      since != it->second.running_since.end()) {
    it->second.running_since.erase(since);
  }
  it->second.last_return = now;
}

bool ClusterExecutors::unresponsive(const std::string& cluster, Duration quiet) const {
  const SteadyTime cutoff = clock_.now() - quiet;
  MutexLock lock(mu_);
  auto it = activity_.find(cluster);
  if (it == activity_.end() || it->second.running_since.empty()) {
    return false;
  }
  const Activity& activity = it->second;
  return *activity.running_since.begin() <= cutoff &&
         (!activity.last_return || *activity.last_return <= cutoff);
}

void ClusterExecutors::forget(const std::string& cluster) {
  LanePtr lane;
  {
    MutexLock lock(mu_);
    auto it = lanes_.find(cluster);
    if (it == lanes_.end()) {
      return;
    }
    lane = std::move(it->second);
    lanes_.erase(it);
    activity_.erase(cluster);
    pruneForgottenLocked();
    forgotten_.push_back(lane);
  }
  lane->closeWithoutWaiting();
}

void ClusterExecutors::pruneForgottenLocked() {
  std::erase_if(forgotten_, [](const LanePtr& lane) { return lane->running() == 0; });
}

void ClusterExecutors::stop() {
  std::vector<LanePtr> lanes;
  {
    MutexLock lock(mu_);
    if (stopped_) {
      return;
    }
    stopped_ = true;
    for (auto& [name, lane] : lanes_) {
      lanes.push_back(std::move(lane));
    }
    lanes_.clear();
    std::move(forgotten_.begin(), forgotten_.end(), std::back_inserter(lanes));
    forgotten_.clear();
  }
  // Every queue is cancelled before the wait for any running task.
  for (const LanePtr& lane : lanes) {
    lane->closeWithoutWaiting();
  }
  for (const LanePtr& lane : lanes) {
    lane->close();
  }
}

std::size_t ClusterExecutors::running(const std::string& cluster) const {
  MutexLock lock(mu_);
  auto it = lanes_.find(cluster);
  return it == lanes_.end() ? 0 : it->second->running();
}

}  // namespace kf
