#include "controllers/federatedtypeconfig/ftc_controller.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "federation/controller/builder.h"

namespace kf {

FtcController::FtcController(FtcControllerOptions options, FtcControllerDeps deps)
    : namespace_(options.kubefed_namespace),
      informer_(deps.ftc_informer),
      writer_(deps.host, namespace_) {
  FtcReconcilerOptions reconciler_options{
      .kubefed_namespace = namespace_,
      .decision = {.scoped_control_plane = options.scoped_control_plane,
                   .raw_resource_status_collection = options.raw_resource_status_collection}};
  FtcReconcilerDeps reconciler_deps{
      .cache = informer_.store(),
      .writer = writer_,
      .factory = deps.factory,
      .events = deps.events,
      .running = running_,
      .enqueue = [this](const std::string& key) { controller_->enqueue(key); }};
  controller_ = ControllerBuilder(kFtcWorkerName, deps.clock)
                    .watches(informer_, inNamespace(namespace_))
                    .reconcileMetric(kFtcControllerMetricName)
                    .complete(std::make_unique<FtcReconciler>(std::move(reconciler_options),
                                                              std::move(reconciler_deps)));
}

FtcController::~FtcController() { stop(); }

Status FtcController::start() {
  spdlog::info("Starting FederatedTypeConfig controller namespace={}", namespace_);
  KF_TRYV(controller_->start());
  informer_.start();
  return boost::outcome_v2::success();
}

void FtcController::stop() {
  // The controller first, so no reconcile starts a controller after the children are stopped.
  controller_->stop();
  running_.stopAll();
}

std::vector<std::string> FtcController::runningSyncControllers() const {
  return running_.names(TypeControllerKind::kSync);
}

std::vector<std::string> FtcController::runningStatusControllers() const {
  return running_.names(TypeControllerKind::kStatus);
}

}  // namespace kf
