#include "controllers/manager/sync_type_controllers.h"

#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

#include "controllers/manager/controller_manager.h"
#include "status/service_status_controller.h"
#include "status/workload_status_controller.h"
#include "sync/controller/sync_controller.h"

namespace kf {

Result<RunnablePtr> SyncTypeControllers::syncController(const core::FederatedTypeConfig& ftc) {
  sync::SyncControllerDeps deps{
      .config = deps_.config,
      .host = ownHostClient(deps_.host, deps_.clock),
      .clusters = deps_.registry,
      .host_informers = deps_.host_informers,
      .member_informers = deps_.member_informers,
      .recorder = [recorders = &deps_.recorders](const std::string& component) -> EventRecorderPtr {
        return recorders->forComponent(component);
      },
      .clock = deps_.clock,
      .member_io = deps_.member_io};
  KF_TRY(controller, sync::syncController(ftc, std::move(deps)));
  std::vector<RunnablePtr> group;
  group.push_back(std::move(controller));
  if (RunnablePtr workload = workloadStatusController(ftc)) group.push_back(std::move(workload));
  return RunnablePtr(std::make_unique<RunnableGroup>(std::move(group)));
}

RunnablePtr SyncTypeControllers::workloadStatusController(const core::FederatedTypeConfig& ftc) {
  // Workload status is an addition to KubeFed: when it cannot run, propagation still does.
  auto kind = core::workloadKindOf(ftc);
  if (!kind) {
    spdlog::error("No workload status for \"{}\": {}", ftc.name(), kind.error().describe());
    return nullptr;
  }
  if (!kind.value()) return nullptr;
  auto controller = status::workloadStatusController(ftc, *kind.value(), statusDeps());
  if (!controller) {
    spdlog::error("Could not start the workload status controller for \"{}\": {}", ftc.name(),
                  controller.error().describe());
    return nullptr;
  }
  return std::move(controller).value();
}

status::StatusControllerDeps SyncTypeControllers::statusDeps() const {
  return {.config = deps_.config,
          .host = ownHostClient(deps_.host, deps_.clock),
          .clusters = deps_.registry,
          .host_informers = deps_.host_informers,
          .member_informers = deps_.member_informers,
          .clock = deps_.clock,
          .member_io = deps_.member_io};
}

Result<RunnablePtr> SyncTypeControllers::statusController(const core::FederatedTypeConfig& ftc) {
  KF_TRY(controller, status::serviceStatusController(ftc, statusDeps()));
  return RunnablePtr(std::move(controller));
}

}  // namespace kf
