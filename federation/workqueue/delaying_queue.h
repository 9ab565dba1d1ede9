#pragma once
// A Queue that can also add a key after a delay measured on the injected Clock. Waiting keys are
// kept in deadline order and a single clock timer is armed for the earliest one, so a FakeClock's
// advance() moves due keys into the queue before it returns.

#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"
#include "federation/workqueue/queue.h"

namespace kf {

class DelayingQueue : public Queue {
 public:
  // A named queue reports client-go's work-queue metrics (queue.h); keys waiting for their delay
  // are not in its depth, as in client-go.
  explicit DelayingQueue(Clock& clock, const std::string& name = "");
  ~DelayingQueue() override;

  // Adds `key` at `priority` once `delay` has elapsed; delay <= 0 adds it now. If the key is
  // already waiting for its delay, the earlier of the two deadlines and the more pressing of the
  // two priorities are kept (a key already queued gets the priority only when the delay is over).
  // Ignored once shutting down.
  void addAfter(const std::string& key, Duration delay, Priority priority = Priority::kNormal)
      KF_EXCLUDES(delay_mu_);
  // Keys whose delay has not yet elapsed.
  std::size_t numWaiting() const KF_EXCLUDES(delay_mu_);

  // Both also drop every waiting key and cancel the timer.
  void shutDown() override KF_EXCLUDES(delay_mu_);
  void shutDownWithDrain() override KF_EXCLUDES(delay_mu_);

 private:
  using Deadline = std::pair<SteadyTime, std::string>;
  struct Delayed {
    SteadyTime deadline;
    Priority priority;
  };

  void stopDelays() KF_EXCLUDES(delay_mu_);
  void onTimer() KF_EXCLUDES(delay_mu_);
  // Removes and returns the keys whose deadline is not after `now`.
  std::vector<QueuedKey> takeDueLocked(SteadyTime now) KF_REQUIRES(delay_mu_);
  // Makes sure a timer is armed no later than the earliest deadline. Returns the handle it
  // replaced, for the caller to destroy once delay_mu_ is released: cancelling it waits for its
  // callback, which may be waiting for delay_mu_.
  [[nodiscard]] TimerHandlePtr armTimerLocked() KF_REQUIRES(delay_mu_);

  Clock& clock_;

  mutable Mutex delay_mu_;
  std::unordered_map<std::string, Delayed> delayed_ KF_GUARDED_BY(delay_mu_);
  std::set<Deadline> by_deadline_ KF_GUARDED_BY(delay_mu_);
  TimerHandlePtr timer_ KF_GUARDED_BY(delay_mu_);
  // The last timer that fired: its onTimer() may still be running.
  TimerHandlePtr fired_ KF_GUARDED_BY(delay_mu_);
  SteadyTime timer_deadline_ KF_GUARDED_BY(delay_mu_);
  bool stopped_ KF_GUARDED_BY(delay_mu_) = false;
};

}  // namespace kf
