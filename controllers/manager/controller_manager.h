#pragma once
// The controllers a leading controller manager runs (spec §2.1 step 8): the KubeFedCluster
// controller always, and the FederatedTypeConfig controller (which starts a sync controller per
// enabled type) when the PushReconciler gate is on. start() and stop() may be called once each;
// stop() stops every controller and joins every thread they started.

#include <memory>

#include "apis/meta/api_error.h"
#include "federation/client/rest_client.h"
#include "federation/controller/control_plane_config.h"
#include "federation/runtime/clock.h"

namespace kf {

// A new host client with `shared`'s configuration and its own rate limiter.
std::shared_ptr<RestClient> ownHostClient(const std::shared_ptr<RestClient>& shared, Clock& clock);

class ControllerManager {
 public:
  ControllerManager(ControlPlaneConfig config, std::shared_ptr<RestClient> host, Clock& clock);
  ~ControllerManager();
  ControllerManager(const ControllerManager&) = delete;
  ControllerManager& operator=(const ControllerManager&) = delete;

  Status start();
  void stop();

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace kf
