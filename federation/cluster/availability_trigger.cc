#include "federation/cluster/availability_trigger.h"

#include <utility>

namespace kf {

ClusterAvailabilityTrigger::ClusterAvailabilityTrigger(ClusterRegistry& clusters, Clock& clock,
                                                       Duration available_delay,
                                                       Duration unavailable_delay,
                                                       std::function<void()> fire)
    : clusters_(clusters),
      clock_(clock),
      available_delay_(available_delay),
      unavailable_delay_(unavailable_delay),
      fire_(std::move(fire)) {}

ClusterAvailabilityTrigger::~ClusterAvailabilityTrigger() { stop(); }

void ClusterAvailabilityTrigger::start() {
  const ListenerId id = clusters_.subscribe([this](const ClusterEvent& event) {
    // A ready cluster whose labels, annotations or spec changed: KubeFed takes it out and adds
    // it back, so both looks happen (a clusterSelector may now match it, or no longer).
    const bool readded =
        event.change == ClusterChange::kChanged && event.cluster.ready && !event.became_available;
    if (event.became_available || readded) arm(/*available=*/true);
    if (event.became_unavailable || readded) arm(/*available=*/false);
  });
  MutexLock lock(mu_);
  listener_ = id;
}

void ClusterAvailabilityTrigger::arm(bool available) {
  TimerHandlePtr replaced;  // destroyed after the lock: cancelling waits for a callback
  MutexLock lock(mu_);
  Pending& pending = available ? available_ : unavailable_;
  if (stopped_ || pending.armed) return;
  pending.armed = true;
  replaced = std::exchange(
      pending.timer,
      clock_.runAfter(available ? available_delay_ : unavailable_delay_, [this, available] {
        {
          MutexLock timer_lock(mu_);
          (available ? available_ : unavailable_).armed = false;
        }
        fire_();
      }));
}

void ClusterAvailabilityTrigger::stop() {
  std::optional<ListenerId> listener;
  TimerHandlePtr available;
  TimerHandlePtr unavailable;
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    listener = std::exchange(listener_, std::nullopt);
  }
  // Unsubscribing waits for a notification in progress, which may arm a timer: take the timers
  // after it. Both outside the lock, which a callback in progress takes.
  if (listener) clusters_.unsubscribe(*listener);
  {
    MutexLock lock(mu_);
    available = std::move(available_.timer);
    unavailable = std::move(unavailable_.timer);
  }
  available.reset();
  unavailable.reset();
}

}  // namespace kf
