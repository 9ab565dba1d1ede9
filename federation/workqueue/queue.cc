#include "federation/workqueue/queue.h"

#include <algorithm>

namespace kf {

Queue::Queue(const std::string& name, const Clock& clock) : clock_(&clock) {
  if (!name.empty()) {
    metrics_ = std::make_unique<metrics::WorkqueueMetrics>(name, [this] { return inProgress(); });
  }
}

Queue::~Queue() {
  if (!metrics_) return;
  MutexLock lock(mu_);
  metrics_->dropped(dirty_.size());
}

void Queue::add(const std::string& key) {
  {
    MutexLock lock(mu_);
    if (shutting_down_) return;
    const auto [waiting, added] = dirty_.try_emplace(key);
    if (!added) return;
    if (metrics_) {
      waiting->second = clock_->now();
      metrics_->added();
    }
    // A key being processed is queued by done(), so one worker never sees it twice at once.
    if (processing_.contains(key)) return;
    queue_.push_back(key);
  }
  item_ready_.notify_one();
}

std::optional<std::string> Queue::get() {
  MutexLock lock(mu_);
  while (queue_.empty() && !shutting_down_) item_ready_.wait(lock.native());
  if (queue_.empty()) return std::nullopt;
  std::string key = std::move(queue_.front());
  queue_.pop_front();
  // The node moves from dirty_ to processing_: no allocation.
  auto entry = dirty_.extract(key);
  if (metrics_) {
    const SteadyTime now = clock_->now();
    metrics_->taken(now - entry.mapped());
    entry.mapped() = now;
  }
  processing_.insert(std::move(entry));
  return key;
}

void Queue::done(const std::string& key) {
  bool requeued = false;
  bool idle = false;
  {
    MutexLock lock(mu_);
    if (auto it = processing_.find(key); it != processing_.end()) {
      if (metrics_) metrics_->done(clock_->now() - it->second);
      processing_.erase(it);
    }
    if (dirty_.contains(key)) {
      queue_.push_back(key);
      requeued = true;
    }
    idle = processing_.empty();
  }
  if (requeued) item_ready_.notify_one();
  if (idle) idle_.notify_all();
}

std::size_t Queue::len() const {
  MutexLock lock(mu_);
  return queue_.size();
}

void Queue::shutDown() {
  {
    MutexLock lock(mu_);
    shutting_down_ = true;
  }
  item_ready_.notify_all();
}

void Queue::shutDownWithDrain() {
  MutexLock lock(mu_);
  shutting_down_ = true;
  item_ready_.notify_all();
  while (!processing_.empty()) idle_.wait(lock.native());
}

bool Queue::shuttingDown() const {
  MutexLock lock(mu_);
  return shutting_down_;
}

metrics::WorkInProgress Queue::inProgress() const {
  MutexLock lock(mu_);
  metrics::WorkInProgress out;
  const SteadyTime now = clock_->now();
  for (const auto& [key, since] : processing_) {
    const Duration age = now - since;
    out.total += age;
    out.longest = std::max(out.longest, age);
  }
  return out;
}

}  // namespace kf
