#include "federation/workqueue/delaying_queue.h"

namespace kf {

DelayingQueue::DelayingQueue(Clock& clock)
    : clock_(clock), lifeline_(std::make_shared<Lifeline>()) {
  MutexLock lock(lifeline_->mu);
  lifeline_->owner = this;
}

DelayingQueue::~DelayingQueue() {
  // Waits for a callback already inside onTimer() to finish; later ones see no owner. The timer
  // itself is cancelled when timer_ is destroyed.
  MutexLock lock(lifeline_->mu);
  lifeline_->owner = nullptr;
}

void DelayingQueue::addAfter(const std::string& key, Duration delay) {
  if (delay <= Duration::zero()) {
    add(key);
    return;
  }
  MutexLock lock(delay_mu_);
  if (stopped_) return;
  const SteadyTime deadline = clock_.now() + delay;
  auto [it, inserted] = deadline_of_.try_emplace(key, deadline);
  if (!inserted) {
    if (it->second <= deadline) return;
    by_deadline_.erase({it->second, key});
    it->second = deadline;
  }
  by_deadline_.insert({deadline, key});
  armTimerLocked();
}

std::size_t DelayingQueue::numWaiting() const {
  MutexLock lock(delay_mu_);
  return deadline_of_.size();
}

void DelayingQueue::shutDown() {
  stopDelays();
  Queue::shutDown();
}

void DelayingQueue::shutDownWithDrain() {
  stopDelays();
  Queue::shutDownWithDrain();
}

void DelayingQueue::stopDelays() {
  MutexLock lock(delay_mu_);
  stopped_ = true;
  deadline_of_.clear();
  by_deadline_.clear();
  timer_.reset();
}

void DelayingQueue::onTimer() {
  std::vector<std::string> due;
  {
    MutexLock lock(delay_mu_);
    due = takeDueLocked(clock_.now());
    // The timer that fired may not be timer_ (a racing addAfter can replace it), so re-arm from
    // scratch for whatever is still waiting.
    timer_.reset();
    armTimerLocked();
  }
  // Outside delay_mu_: add() takes the queue's own lock and may wake a worker.
  for (const std::string& key : due) add(key);
}

std::vector<std::string> DelayingQueue::takeDueLocked(SteadyTime now) {
  std::vector<std::string> due;
  while (!by_deadline_.empty() && by_deadline_.begin()->first <= now) {
    auto first = by_deadline_.extract(by_deadline_.begin());
    deadline_of_.erase(first.value().second);
    due.push_back(std::move(first.value().second));
  }
  return due;
}

void DelayingQueue::armTimerLocked() {
  if (stopped_ || by_deadline_.empty()) {
    timer_.reset();
    return;
  }
  const SteadyTime earliest = by_deadline_.begin()->first;
  if (timer_ && timer_deadline_ <= earliest) return;
  timer_deadline_ = earliest;
  timer_ = clock_.runAfter(earliest - clock_.now(), [lifeline = lifeline_] {
    MutexLock lock(lifeline->mu);
    if (lifeline->owner != nullptr) lifeline->owner->onTimer();
  });
}

}  // namespace kf
