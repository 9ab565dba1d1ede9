#include "federation/workqueue/queue.h"

#include <algorithm>

namespace kf {
namespace {

std::size_t levelOf(Priority priority) { return static_cast<std::size_t>(priority); }

}  // namespace

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

void Queue::add(const std::string& key, Priority priority) {
  {
    MutexLock lock(mu_);
    if (shutting_down_) return;
    const auto [waiting, added] = dirty_.try_emplace(key);
    if (!added) {
      raiseLocked(waiting->second, priority);
      return;
    }
    waiting->second.priority = priority;
    if (metrics_) {
      waiting->second.since = clock_->now();
      metrics_->added();
    }
    // A key being processed is queued by done(), so one worker never sees it twice at once.
    if (processing_.contains(key)) return;
    pushLocked(key, waiting->second);
  }
  item_ready_.notify_one();
}

void Queue::pushLocked(const std::string& key, Entry& entry) {
  Fifo& fifo = fifos_[levelOf(entry.priority)];
  entry.position = fifo.insert(fifo.end(), key);
}

void Queue::raiseLocked(Entry& entry, Priority priority) {
  if (morePressing(entry.priority, priority) == entry.priority) return;
  if (entry.position) {
    // Behind the keys already waiting at the new priority: they were there first.
    Fifo& to = fifos_[levelOf(priority)];
    to.splice(to.end(), fifos_[levelOf(entry.priority)], *entry.position);
  }
  entry.priority = priority;
}

std::optional<QueuedKey> Queue::getWithPriority() {
  MutexLock lock(mu_);
  while (waitingLocked() == 0 && !shutting_down_) item_ready_.wait(lock.native());
  // The most pressing priority first.
  auto fifo =
      std::find_if(fifos_.rbegin(), fifos_.rend(), [](const Fifo& f) { return !f.empty(); });
  if (fifo == fifos_.rend()) return std::nullopt;
  std::string key = std::move(fifo->front());
  fifo->pop_front();
  // The node moves from dirty_ to processing_: no allocation.
  auto entry = dirty_.extract(key);
  entry.mapped().position.reset();
  if (metrics_) {
    const SteadyTime now = clock_->now();
    metrics_->taken(now - entry.mapped().since);
    entry.mapped().since = now;
  }
  const Priority priority = entry.mapped().priority;
  processing_.insert(std::move(entry));
  return QueuedKey{std::move(key), priority};
}

std::optional<std::string> Queue::get() {
  std::optional<QueuedKey> taken = getWithPriority();
  if (!taken) return std::nullopt;
  return std::move(taken->key);
}

void Queue::done(const std::string& key) {
  bool requeued = false;
  bool idle = false;
  {
    MutexLock lock(mu_);
    if (auto it = processing_.find(key); it != processing_.end()) {
      if (metrics_) metrics_->done(clock_->now() - it->second.since);
      processing_.erase(it);
    }
    // Only a key that waited for this: done() of a key that is already queued changes nothing.
    if (auto waiting = dirty_.find(key); waiting != dirty_.end() && !waiting->second.position) {
      pushLocked(key, waiting->second);
      requeued = true;
    }
    idle = processing_.empty();
  }
  if (requeued) item_ready_.notify_one();
  if (idle) idle_.notify_all();
}

std::size_t Queue::len() const {
  MutexLock lock(mu_);
  return waitingLocked();
}

std::size_t Queue::waitingLocked() const {
  std::size_t waiting = 0;
  for (const Fifo& fifo : fifos_) waiting += fifo.size();
  return waiting;
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
  for (const auto& [key, entry] : processing_) {
    const Duration age = now - entry.since;
    out.total += age;
    out.longest = std::max(out.longest, age);
  }
  return out;
}

}  // namespace kf
