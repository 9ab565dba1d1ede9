#include "federation/workqueue/delaying_queue.h"

namespace kf {

DelayingQueue::DelayingQueue(Clock& clock, const std::string& name)
    : Queue(name, clock), clock_(clock) {}

DelayingQueue::~DelayingQueue() {
  TimerHandlePtr timer;
  TimerHandlePtr fired;
  {
    MutexLock lock(delay_mu_);
    timer = std::move(timer_);
    fired = std::move(fired_);
  }
  // Outside delay_mu_: cancelling waits for an onTimer() in progress, which takes it.
  timer.reset();
  fired.reset();
}

void DelayingQueue::addAfter(const std::string& key, Duration delay, Priority priority) {
  if (delay <= Duration::zero()) {
    add(key, priority);
    return;
  }
  TimerHandlePtr retired;  // destroyed after the lock is released, see armTimerLocked()
  MutexLock lock(delay_mu_);
  if (stopped_) return;
  const SteadyTime deadline = clock_.now() + delay;
  auto [it, inserted] = delayed_.try_emplace(key, Delayed{deadline, priority});
  if (!inserted) {
    Delayed& waiting = it->second;
    waiting.priority = morePressing(waiting.priority, priority);
    if (waiting.deadline <= deadline) return;
    by_deadline_.erase({waiting.deadline, key});
    waiting.deadline = deadline;
  }
  by_deadline_.insert({deadline, key});
  retired = armTimerLocked();
}

std::size_t DelayingQueue::numWaiting() const {
  MutexLock lock(delay_mu_);
  return delayed_.size();
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
  TimerHandlePtr timer;
  TimerHandlePtr fired;
  {
    MutexLock lock(delay_mu_);
    stopped_ = true;
    delayed_.clear();
    by_deadline_.clear();
    timer = std::move(timer_);
    fired = std::move(fired_);
  }
  // Outside delay_mu_: cancelling waits for an onTimer() in progress, which takes it.
  timer.reset();
  fired.reset();
}

void DelayingQueue::onTimer() {
  std::vector<QueuedKey> due;
  TimerHandlePtr finished;
  TimerHandlePtr retired;
  {
    MutexLock lock(delay_mu_);
    due = takeDueLocked(clock_.now());
    // The handle of the timer running this stays in fired_ until the next one fires, so that
    // the destructor can wait for this callback. (The timer that fired may not be timer_ -- a
    // racing addAfter can replace it -- so re-arm from scratch for whatever is still waiting.)
    finished = std::exchange(fired_, std::move(timer_));
    retired = armTimerLocked();
  }
  // Outside delay_mu_: add() takes the queue's own lock and may wake a worker.
  for (const QueuedKey& key : due) add(key.key, key.priority);
}

std::vector<QueuedKey> DelayingQueue::takeDueLocked(SteadyTime now) {
  std::vector<QueuedKey> due;
  while (!by_deadline_.empty() && by_deadline_.begin()->first <= now) {
    auto first = by_deadline_.extract(by_deadline_.begin());
    auto delayed = delayed_.extract(first.value().second);
    due.push_back({std::move(first.value().second), delayed.mapped().priority});
  }
  return due;
}

TimerHandlePtr DelayingQueue::armTimerLocked() {
  if (stopped_ || by_deadline_.empty()) return std::move(timer_);
  const SteadyTime earliest = by_deadline_.begin()->first;
  if (timer_ && timer_deadline_ <= earliest) return nullptr;
  timer_deadline_ = earliest;
  TimerHandlePtr replaced = std::move(timer_);
  // The queue outlives the timer: its destructor and stopDelays() cancel it, which waits for a
  // callback in progress.
  timer_ = clock_.runAfter(earliest - clock_.now(), [this] { onTimer(); });
  return replaced;
}

}  // namespace kf
