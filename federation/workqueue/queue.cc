#include "federation/workqueue/queue.h"

namespace kf {

void Queue::add(const std::string& key) {
  {
    MutexLock lock(mu_);
    if (shutting_down_ || !dirty_.insert(key).second) return;
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
  dirty_.erase(key);
  processing_.insert(key);
  return key;
}

void Queue::done(const std::string& key) {
  bool requeued = false;
  bool idle = false;
  {
    MutexLock lock(mu_);
    processing_.erase(key);
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

}  // namespace kf
