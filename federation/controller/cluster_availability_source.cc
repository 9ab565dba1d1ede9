#include "federation/controller/cluster_availability_source.h"

#include <utility>

namespace kf {

ClusterAvailabilitySource::ClusterAvailabilitySource(ClusterRegistry& clusters, Clock& clock,
                                                     Duration available_delay,
                                                     Duration unavailable_delay)
    : clusters_(clusters),
      clock_(clock),
      available_delay_(available_delay),
      unavailable_delay_(unavailable_delay) {}

ClusterAvailabilitySource::~ClusterAvailabilitySource() { stop(); }

void ClusterAvailabilitySource::start(EnqueueTarget& target, Handler handler) {
  MutexLock lock(mu_);
  if (stopped_ || trigger_) return;
  trigger_ = std::make_unique<ClusterAvailabilityTrigger>(
      clusters_, clock_, available_delay_, unavailable_delay_,
      // A look at every key: a backlog, behind the changes users make meanwhile.
      [&target, handler = std::move(handler)] {
        handler.deliver(nullptr, target, Priority::kBacklog);
      });
  trigger_->start();
}

void ClusterAvailabilitySource::stop() {
  std::unique_ptr<ClusterAvailabilityTrigger> trigger;
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    trigger = std::move(trigger_);
  }
  // Outside the lock: stopping waits for a registry notification or a firing in progress.
  if (trigger) trigger->stop();
}

}  // namespace kf
