#pragma once
// The controllers a leading controller manager runs (spec §2.1 step 8), registered with the
// runtime's Manager: the KubeFedCluster controller always, and the FederatedTypeConfig controller
// (which starts a sync controller per enabled type) when the PushReconciler gate is on. The
// Manager starts them once this process leads and stops them in reverse order, each joining
// every thread it started, then the shared informers and the event senders.

#include <memory>

#include "federation/client/rest_client.h"
#include "federation/controller/control_plane_config.h"
#include "federation/controller/manager.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"

namespace kf {

// A new host client with `shared`'s configuration and its own rate limiter.
std::shared_ptr<RestClient> ownHostClient(const std::shared_ptr<RestClient>& shared, Clock& clock);

class ControllerManager {
 public:
  // `clock` and the pools (which must not be null) serve every controller, informer and member
  // operation; they must outlive this.
  ControllerManager(ControlPlaneConfig config, std::shared_ptr<RestClient> host, Clock& clock,
                    TaskPools pools);
  ~ControllerManager();
  ControllerManager(const ControllerManager&) = delete;
  ControllerManager& operator=(const ControllerManager&) = delete;

  // Registers every runnable with `manager`, which must not run longer than this object lives.
  void addTo(Manager& manager);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace kf
