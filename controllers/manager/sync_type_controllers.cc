#include "controllers/manager/sync_type_controllers.h"

#include <spdlog/spdlog.h>

#include "controllers/manager/controller_manager.h"
#include "sync/sync_controller.h"

namespace kf {
namespace {

class RunningSyncController final : public TypeController {
 public:
  RunningSyncController(std::unique_ptr<sync::SyncController> controller, std::string name)
      : controller_(std::move(controller)), name_(std::move(name)) {}
  ~RunningSyncController() override { stop(); }
  void stop() override {
    if (!controller_) return;
    controller_->stop();
    controller_.reset();
    spdlog::info("Stopped sync controller for \"{}\"", name_);
  }

 private:
  std::unique_ptr<sync::SyncController> controller_;
  std::string name_;
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
  return std::unique_ptr<TypeController>(
      std::make_unique<RunningSyncController>(std::move(controller), ftc.name()));
}

Result<std::unique_ptr<TypeController>> SyncTypeControllers::startStatus(
    const core::FederatedTypeConfig& ftc) {
  return makeError(Reason::kBadConfig,
                   "the FederatedServiceStatus controller for \"" + ftc.name() +
                       "\" is not part of this build yet (status collection is a later "
                       "milestone); propagation is unaffected");
}

}  // namespace kf
