#include "controllers/manager/sync_type_controllers.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "controllers/manager/controller_manager.h"
#include "status/service_status_controller.h"
#include "status/workload_status_controller.h"
#include "sync/controller/sync_controller.h"

namespace kf {
namespace {

// The sync controller and, for workload types, the workload status controller beside it: they
// start and stop together (the workload status one first, as it reads what sync writes).
class RunningSyncController final : public TypeController {
 public:
  RunningSyncController(std::unique_ptr<sync::SyncController> controller,
                        std::unique_ptr<status::WorkloadStatusController> workload,
                        std::string name)
      : controller_(std::move(controller)),
        workload_(std::move(workload)),
        name_(std::move(name)) {}
  ~RunningSyncController() override { stop(); }
  void stop() override {
    if (workload_) std::exchange(workload_, nullptr)->stop();
    if (!controller_) return;
    controller_->stop();
    controller_.reset();
    spdlog::info("Stopped sync controller for \"{}\"", name_);
  }

 private:
  std::unique_ptr<sync::SyncController> controller_;
  std::unique_ptr<status::WorkloadStatusController> workload_;
  std::string name_;
};

class RunningStatusController final : public TypeController {
 public:
  explicit RunningStatusController(std::unique_ptr<status::ServiceStatusController> controller)
      : controller_(std::move(controller)) {}
  ~RunningStatusController() override { stop(); }
  void stop() override {
    if (controller_) std::exchange(controller_, nullptr)->stop();
  }

 private:
  std::unique_ptr<status::ServiceStatusController> controller_;
};

}  // namespace

Result<std::unique_ptr<TypeController>> SyncTypeControllers::startSync(
    const core::FederatedTypeConfig& ftc) {
  sync::SyncControllerDeps deps{
      .config = deps_.config,
      .host = ownHostClient(deps_.host, deps_.clock),
      .clusters = deps_.registry,
      .host_informers = deps_.host_informers,
      .member_informers = deps_.member_informers,
      .recorder = [recorders = &deps_.recorders](const std::string& component) -> EventRecorderPtr {
        return recorders->forComponent(component);
      },
      .clock = deps_.clock};
  KF_TRY(controller, sync::SyncController::start(ftc, std::move(deps)));
  spdlog::info("Started sync controller for \"{}\"", ftc.name());
  return std::unique_ptr<TypeController>(std::make_unique<RunningSyncController>(
      std::move(controller), startWorkloadStatus(ftc), ftc.name()));
}

std::unique_ptr<status::WorkloadStatusController> SyncTypeControllers::startWorkloadStatus(
    const core::FederatedTypeConfig& ftc) {
  // Workload status is an addition to KubeFed: when it cannot run, propagation still does.
  auto kind = core::workloadKindOf(ftc);
  if (!kind) {
    spdlog::error("No workload status for \"{}\": {}", ftc.name(), kind.error().describe());
    return nullptr;
  }
  if (!kind.value()) return nullptr;
  auto controller = status::WorkloadStatusController::start(ftc, *kind.value(), statusDeps());
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
          .clock = deps_.clock};
}

Result<std::unique_ptr<TypeController>> SyncTypeControllers::startStatus(
    const core::FederatedTypeConfig& ftc) {
  KF_TRY(controller, status::ServiceStatusController::start(ftc, statusDeps()));
  return std::unique_ptr<TypeController>(
      std::make_unique<RunningStatusController>(std::move(controller)));
}

}  // namespace kf
