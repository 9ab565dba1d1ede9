#pragma once
// The TypeControllerFactory the controller manager gives the FederatedTypeConfig controller: a
// sync controller per FTC over the shared cluster registry and informers. The legacy
// FederatedServiceStatus controller is a later milestone: asking for it fails with a clear error,
// which the FTC controller reports and retries.

#include <memory>

#include "controllers/federatedtypeconfig/type_controllers.h"
#include "federation/client/rest_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/control_plane_config.h"
#include "federation/events/event_recorders.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/clock.h"

namespace kf {

class SyncTypeControllers final : public TypeControllerFactory {
 public:
  // Everything must outlive the factory and the controllers it starts.
  struct Deps {
    ControlPlaneConfig config;
    std::shared_ptr<RestClient> host;
    ClusterRegistry& registry;
    InformerManager& host_informers;
    InformerManager& member_informers;
    EventRecorders& recorders;
    Clock& clock;
  };
  explicit SyncTypeControllers(Deps deps) : deps_(std::move(deps)) {}

  Result<std::unique_ptr<TypeController>> startSync(const core::FederatedTypeConfig& ftc) override;
  Result<std::unique_ptr<TypeController>> startStatus(
      const core::FederatedTypeConfig& ftc) override;

 private:
  Deps deps_;
};

}  // namespace kf
