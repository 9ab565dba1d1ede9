#include "controllers/federatedtypeconfig/ftc_controller.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "federation/controller/change_trigger.h"
#include "federation/metrics/kubefed_metrics.h"

namespace kf {
namespace {

// KubeFed logs reconciles slower than this.
constexpr Duration kSlowReconcile = std::chrono::seconds(10);

FtcReconcilerOptions reconcilerOptions(const FtcControllerOptions& options) {
  return {.kubefed_namespace = options.kubefed_namespace,
          .decision = {.scoped_control_plane = options.scoped_control_plane,
                       .raw_resource_status_collection = options.raw_resource_status_collection}};
}

}  // namespace

FtcController::FtcController(FtcControllerOptions options, FtcControllerDeps deps)
    : options_(std::move(options)),
      clock_(deps.clock),
      informer_(deps.ftc_informer),
      writer_(deps.host, options_.kubefed_namespace),
      reconciler_(
          reconcilerOptions(options_),
          FtcReconcilerDeps{.cache = informer_.store(),
                            .writer = writer_,
                            .factory = deps.factory,
                            .events = deps.events,
                            .running = running_,
                            .enqueue = [this](const std::string& key) { worker_.enqueue(key); }}),
      worker_(
          ReconcileWorkerOptions{.name = kFtcWorkerName, .concurrency = 1},
          [this](const std::string& key) { return reconcileAndMeasure(key); }, deps.clock) {}

FtcController::~FtcController() { stop(); }

void FtcController::start() {
  MutexLock lock(mu_);
  if (started_ || stopped_) return;
  started_ = true;
  spdlog::info("Starting FederatedTypeConfig controller namespace={}", options_.kubefed_namespace);
  const std::string& ns = options_.kubefed_namespace;
  handler_ = informer_.addEventHandler(std::make_shared<ChangeTrigger>([this, ns](const Json& ftc) {
    if (objectNamespace(ftc) == ns) worker_.enqueue(objectKey(ftc));
  }));
  worker_.start();
  informer_.start();
}

void FtcController::stop() {
  std::optional<HandlerId> handler;
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    handler = std::exchange(handler_, std::nullopt);
  }
  // The handler first, so no notification arrives for a stopped worker; then the worker, so no
  // reconcile starts a controller after the children are stopped.
  if (handler) informer_.removeEventHandler(*handler);
  worker_.stop();
  running_.stopAll();
  spdlog::info("Stopped FederatedTypeConfig controller namespace={}", options_.kubefed_namespace);
}

std::vector<std::string> FtcController::runningSyncControllers() const {
  return running_.names(TypeControllerKind::kSync);
}

std::vector<std::string> FtcController::runningStatusControllers() const {
  return running_.names(TypeControllerKind::kStatus);
}

ReconcileResult FtcController::reconcileAndMeasure(const std::string& key) {
  const SteadyTime started = clock_.now();
  const ReconcileResult result = reconciler_.reconcile(key);
  const Duration elapsed = clock_.now() - started;
  metrics::observeControllerReconcile(kFtcControllerMetricName, elapsed);
  if (elapsed > kSlowReconcile) {
    spdlog::debug("Reconcile took {}ms ftc={}",
                  std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), key);
  }
  return result;
}

}  // namespace kf
