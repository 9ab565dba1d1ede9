#include "federation/controller/cluster_change_trigger.h"

#include <utility>

namespace kf {

ClusterChangeTrigger::ClusterChangeTrigger(ClusterRegistry& clusters, Clock& clock, Delays delays,
                                           std::function<void()> fire)
    : clusters_(clusters), clock_(clock), delays_(delays), fire_(std::move(fire)) {}

ClusterChangeTrigger::~ClusterChangeTrigger() { stop(); }

void ClusterChangeTrigger::start() {
  {
    MutexLock lock(mu_);
    if (stopped_ || listener_) return;
  }
  const ListenerId id = clusters_.subscribe([this](const ClusterEvent& event) { onEvent(event); });
  MutexLock lock(mu_);
  listener_ = id;
}

void ClusterChangeTrigger::stop() {
  std::optional<ListenerId> listener;
  TimerHandlePtr available;
  TimerHandlePtr unavailable;
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    listener = std::exchange(listener_, std::nullopt);
    available = std::move(available_.timer);
    unavailable = std::move(unavailable_.timer);
  }
  if (listener) clusters_.unsubscribe(*listener);
  // Outside the lock: cancelling waits for a callback in progress, which takes it.
  available.reset();
  unavailable.reset();
}

void ClusterChangeTrigger::onEvent(const ClusterEvent& event) {
  if (event.became_available) arm(/*available=*/true);
  if (event.became_unavailable) arm(/*available=*/false);
}

void ClusterChangeTrigger::arm(bool available) {
  TimerHandlePtr replaced;  // destroyed after the lock: see stop()
  MutexLock lock(mu_);
  Pending& pending = available ? available_ : unavailable_;
  if (stopped_ || pending.armed) return;
  pending.armed = true;
  const Duration delay = available ? delays_.available : delays_.unavailable;
  replaced = std::exchange(pending.timer, clock_.runAfter(delay, [this, available] {
    {
      MutexLock timer_lock(mu_);
      (available ? available_ : unavailable_).armed = false;
    }
    fire_();
  }));
}

}  // namespace kf
