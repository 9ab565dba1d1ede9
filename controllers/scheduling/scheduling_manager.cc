#include "controllers/scheduling/scheduling_manager.h"

#include <spdlog/spdlog.h>

#include <optional>
#include <utility>

#include "federation/controller/builder.h"

namespace kf::scheduling {

namespace {

const GroupVersionResource kTypeConfigs{"core.kubefed.io", "v1beta1", "federatedtypeconfigs", true};
constexpr std::string_view kSchedulingFtcs[] = {"deployments.apps", "replicasets.apps"};

// The FTC `key` names as KubeFed reads it (defaults applied); nullopt when it is not cached, is
// being deleted, or cannot be read (logged).
std::optional<core::FederatedTypeConfig> liveFtc(const Store& ftcs, const std::string& key) {
  ObjectPtr object = ftcs.get(key);
  if (!object || hasDeletionTimestamp(*object)) return std::nullopt;
  auto ftc = core::FederatedTypeConfig::fromJson(*object);
  if (!ftc) {
    spdlog::error("FederatedTypeConfig {} cannot be read: {}", key, ftc.error().describe());
    return std::nullopt;
  }
  core::setFederatedTypeConfigDefaults(ftc.value());
  return std::move(ftc).value();
}

}  // namespace

bool isSchedulingFtc(std::string_view ftc_name) {
  for (std::string_view name : kSchedulingFtcs) {
    if (name == ftc_name) return true;
  }
  return false;
}

ReconcileResult SchedulingManagerReconciler::reconcile(const std::string& key) {
  const std::string prefix = namespace_ + "/";
  if (key.rfind(prefix, 0) != 0) return ReconcileStatus::kOk;
  const std::string name = key.substr(prefix.size());
  if (!isSchedulingFtc(name)) return ReconcileStatus::kOk;

  std::optional<core::FederatedTypeConfig> ftc = liveFtc(ftcs_, key);
  if (!ftc || ftc->spec.propagation != core::kEnabled) {
    stopPlugin(name);
    return ReconcileStatus::kOk;
  }
  std::optional<core::FederatedTypeConfig> namespaces =
      liveFtc(ftcs_, prefix + std::string(core::kNamespacesFtcName));
  if (!namespaces) {
    return makeError(Reason::kNotFound, "Unable to start scheduling plugin for \"" + name +
                                            "\" due to missing FederatedTypeConfig for namespaces");
  }
  KF_TRYV(startPlugin(*ftc, namespaces->spec.federated_type));
  return ReconcileStatus::kOk;
}

Status SchedulingManagerReconciler::startPlugin(const core::FederatedTypeConfig& ftc,
                                                const core::ApiResource& federated_namespace) {
  MutexLock lock(mu_);
  if (!rsp_) {
    KF_TRY(rsp, RspController::start(rsp_deps_));
    rsp_ = std::move(rsp);
  }
  return rsp_->startPlugin(ftc, federated_namespace);
}

void SchedulingManagerReconciler::stopPlugin(const std::string& ftc_name) {
  std::unique_ptr<RspController> last;
  {
    MutexLock lock(mu_);
    if (!rsp_) return;
    rsp_->stopPlugin(ftc_name);
    if (rsp_->plugins().empty()) last = std::move(rsp_);
  }
  if (last) last->stop();
}

void SchedulingManagerReconciler::stopAll() {
  std::unique_ptr<RspController> rsp;
  {
    MutexLock lock(mu_);
    rsp = std::move(rsp_);
  }
  if (rsp) rsp->stop();
}

std::vector<std::string> SchedulingManagerReconciler::plugins() const {
  MutexLock lock(mu_);
  return rsp_ ? rsp_->plugins() : std::vector<std::string>{};
}

bool SchedulingManagerReconciler::rspControllerRunning() const {
  MutexLock lock(mu_);
  return rsp_ != nullptr;
}

SchedulingManager::SchedulingManager(RspControllerDeps rsp_deps) : rsp_deps_(std::move(rsp_deps)) {}

SchedulingManager::~SchedulingManager() { stop(); }

Status SchedulingManager::start() {
  const std::string& ns = rsp_deps_.config.kubefed_namespace;
  KF_TRY(lease, rsp_deps_.host_informers.acquire(
                    InformerKey{.cluster = "", .resource = kTypeConfigs, .namespace_name = ns}));
  ftcs_ = std::move(lease);
  reconciler_ = std::make_unique<SchedulingManagerReconciler>(ftcs_->store(), ns, rsp_deps_);
  // The `namespaces` FTC coming or going decides whether plugins can start.
  MapFunc keys = [ns](const Json& object) {
    std::vector<std::string> out = {objectKey(object)};
    if (objectNamespace(object) == ns && objectName(object) == core::kNamespacesFtcName) {
      for (std::string_view name : kSchedulingFtcs) out.push_back(ns + "/" + std::string(name));
    }
    return out;
  };
  controller_ =
      ControllerBuilder(kSchedulingManagerWorkerName, rsp_deps_.clock)
          .watches(ftcs_.informer(), std::move(keys))
          .reconcileMetric(kSchedulingManagerMetricName)
          .complete(std::make_unique<ReconcilerFunc>(
              [r = reconciler_.get()](const std::string& key) { return r->reconcile(key); }));
  spdlog::info("Starting scheduling manager");
  return controller_->start();
}

void SchedulingManager::stop() {
  // The manager's worker first, so no reconcile starts a plugin after they are stopped.
  if (controller_) controller_->stop();
  if (reconciler_) reconciler_->stopAll();
  ftcs_.release();
}

std::vector<std::string> SchedulingManager::plugins() const {
  return reconciler_ ? reconciler_->plugins() : std::vector<std::string>{};
}

bool SchedulingManager::rspControllerRunning() const {
  return reconciler_ && reconciler_->rspControllerRunning();
}

}  // namespace kf::scheduling
