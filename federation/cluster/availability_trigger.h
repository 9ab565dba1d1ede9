#pragma once
// KubeFed's reaction to a member cluster changing readiness (spec §2.5.1, §2.7): once a cluster
// became ready, wait `available_delay` (clusterAvailableDelay) for the caches to follow, then
// look at everything again; the same `unavailable_delay` (clusterUnavailableDelay) after one
// stopped being ready. A ready cluster whose labels, annotations or spec changed arms both, as
// KubeFed removes and adds such a cluster again. One timer per direction is pending at a time: a
// second change while one waits is covered by it.

#include <functional>
#include <optional>

#include "federation/cluster/cluster_registry.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class ClusterAvailabilityTrigger {
 public:
  // `fire` runs on the clock's timer thread: it must be quick (enqueue keys).
  ClusterAvailabilityTrigger(ClusterRegistry& clusters, Clock& clock, Duration available_delay,
                             Duration unavailable_delay, std::function<void()> fire);
  // stop().
  ~ClusterAvailabilityTrigger();
  ClusterAvailabilityTrigger(const ClusterAvailabilityTrigger&) = delete;
  ClusterAvailabilityTrigger& operator=(const ClusterAvailabilityTrigger&) = delete;

  // Subscribes to the registry. Once only.
  void start() KF_EXCLUDES(mu_);
  // Unsubscribes and cancels the pending timers; when it returns `fire` is not running and will
  // not run again. Idempotent.
  void stop() KF_EXCLUDES(mu_);

 private:
  struct Pending {
    TimerHandlePtr timer;
    bool armed = false;
  };
  void arm(bool available) KF_EXCLUDES(mu_);

  ClusterRegistry& clusters_;
  Clock& clock_;
  const Duration available_delay_;
  const Duration unavailable_delay_;
  const std::function<void()> fire_;

  Mutex mu_;
  bool stopped_ KF_GUARDED_BY(mu_) = false;
  std::optional<ListenerId> listener_ KF_GUARDED_BY(mu_);
  Pending available_ KF_GUARDED_BY(mu_);
  Pending unavailable_ KF_GUARDED_BY(mu_);
};

}  // namespace kf
