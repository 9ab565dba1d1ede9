#pragma once
// The TypeControllerFactory the controller manager gives the FederatedTypeConfig controller: a
// sync controller per FTC, and the legacy status controller (FederatedServiceStatus) where the
// FTC asks for one, over the shared cluster registry and informers. A sync controller of a
// workload type (core::workloadKindOf) runs with a workload status controller beside it: they
// start together and stop together, the workload status one first, as it reads what sync writes.

#include <memory>

#include "controllers/federatedtypeconfig/type_controllers.h"
#include "federation/client/rest_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/control_plane_config.h"
#include "federation/events/event_recorders.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"
#include "status/status_deps.h"

namespace kf {

class SyncTypeControllers final : public TypeControllerFactory {
 public:
  // Everything must outlive the factory and the controllers it builds.
  struct Deps {
    ControlPlaneConfig config;
    std::shared_ptr<RestClient> host;
    ClusterRegistry& registry;
    InformerManager& host_informers;
    InformerManager& member_informers;
    EventRecorders& recorders;
    Clock& clock;
    // Where member operations and member informer leases run; null: memberIoPool().
    TaskPool* member_io = nullptr;
  };
  explicit SyncTypeControllers(Deps deps) : deps_(std::move(deps)) {}

  Result<RunnablePtr> syncController(const core::FederatedTypeConfig& ftc) override;
  Result<RunnablePtr> statusController(const core::FederatedTypeConfig& ftc) override;

 private:
  // Null when the type has no workload status or it cannot be built (logged).
  RunnablePtr workloadStatusController(const core::FederatedTypeConfig& ftc);
  status::StatusControllerDeps statusDeps() const;

  Deps deps_;
};

}  // namespace kf
