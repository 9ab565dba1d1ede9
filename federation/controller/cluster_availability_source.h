#pragma once
// A source for KubeFed's delayed look at everything after a member cluster changed readiness
// (federation/cluster/availability_trigger.h): each firing is one event about no object in
// particular, which a handler such as enqueueAll maps to every key.

#include <memory>
#include <optional>

#include "federation/cluster/availability_trigger.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/control_plane_config.h"
#include "federation/controller/source.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class ClusterAvailabilitySource final : public Source {
 public:
  // `clusters` and `clock` must outlive the source.
  ClusterAvailabilitySource(ClusterRegistry& clusters, Clock& clock, Duration available_delay,
                            Duration unavailable_delay);
  // With the control plane's clusterAvailableDelay and clusterUnavailableDelay.
  ClusterAvailabilitySource(ClusterRegistry& clusters, Clock& clock,
                            const ControlPlaneConfig& config)
      : ClusterAvailabilitySource(clusters, clock, config.cluster_available_delay,
                                  config.cluster_unavailable_delay) {}
  // stop().
  ~ClusterAvailabilitySource() override;

  void start(EnqueueTarget& target, Handler handler) override KF_EXCLUDES(mu_);
  // Unsubscribes and cancels the pending delays; a firing in progress is waited for.
  void stop() override KF_EXCLUDES(mu_);
  bool synced() const override { return true; }

 private:
  ClusterRegistry& clusters_;
  Clock& clock_;
  const Duration available_delay_;
  const Duration unavailable_delay_;
  Mutex mu_;
  std::unique_ptr<ClusterAvailabilityTrigger> trigger_ KF_GUARDED_BY(mu_);
  bool stopped_ KF_GUARDED_BY(mu_) = false;
};

}  // namespace kf
