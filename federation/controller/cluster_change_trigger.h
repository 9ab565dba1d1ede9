#pragma once
// Calls back some time after a member cluster became ready or unready (KubeFed's cluster
// lifecycle handlers with their delays, spec §2.5.1): a per-type controller then looks at every
// object again, once its caches had time to follow. At most one call is pending per direction;
// a change while one is pending is folded into it.

#include <functional>
#include <optional>

#include "federation/cluster/cluster_registry.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class ClusterChangeTrigger {
 public:
  struct Delays {
    Duration available;    // after a cluster became ready
    Duration unavailable;  // after a cluster stopped being ready, or left
  };

  // `fire` runs on a timer thread of `clock`; it must be quick.
  ClusterChangeTrigger(ClusterRegistry& clusters, Clock& clock, Delays delays,
                       std::function<void()> fire);
  // stop().
  ~ClusterChangeTrigger();
  ClusterChangeTrigger(const ClusterChangeTrigger&) = delete;
  ClusterChangeTrigger& operator=(const ClusterChangeTrigger&) = delete;

  void start() KF_EXCLUDES(mu_);
  // Unsubscribes and cancels pending calls, waiting for one in progress. Idempotent.
  void stop() KF_EXCLUDES(mu_);

 private:
  struct Pending {
    TimerHandlePtr timer;
    bool armed = false;
  };

  void onEvent(const ClusterEvent& event) KF_EXCLUDES(mu_);
  void arm(bool available) KF_EXCLUDES(mu_);

  ClusterRegistry& clusters_;
  Clock& clock_;
  const Delays delays_;
  const std::function<void()> fire_;

  Mutex mu_;
  bool stopped_ KF_GUARDED_BY(mu_) = false;
  std::optional<ListenerId> listener_ KF_GUARDED_BY(mu_);
  Pending available_ KF_GUARDED_BY(mu_);
  Pending unavailable_ KF_GUARDED_BY(mu_);
};

}  // namespace kf
