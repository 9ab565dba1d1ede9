#include "controllers/scheduling/scheduling_manager.h"

#include <spdlog/spdlog.h>

#include <optional>
#include <utility>

#include "federation/controller/builder.h"
#include "federation/controller/informer_source.h"

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

// An FTC's own key; the `namespaces` FTC coming or going also decides whether the scheduling
// FTCs' plugins can start, so it queues them too.
MapFunc schedulingFtcKeys(std::string ns) {
  return [ns = std::move(ns)](const Json& object) {
    std::vector<std::string> out = {objectKey(object)};
    if (objectNamespace(object) == ns && objectName(object) == core::kNamespacesFtcName) {
      for (std::string_view name : kSchedulingFtcs) out.push_back(ns + "/" + std::string(name));
    }
    return out;
  };
}

}  // namespace

bool isSchedulingFtc(std::string_view ftc_name) {
  for (std::string_view name : kSchedulingFtcs) {
    if (name == ftc_name) return true;
  }
  return false;
}

SchedulingManagerReconciler::SchedulingManagerReconciler(const Store& ftcs,
                                                         std::string kubefed_namespace,
                                                         RspControllerDeps rsp_deps)
    : ftcs_(ftcs),
      namespace_(std::move(kubefed_namespace)),
      rsp_deps_(std::move(rsp_deps)),
      plugins_(SchedulingPluginDeps{.host_informers = rsp_deps_.host_informers,
                                    .member_informers = rsp_deps_.member_informers,
                                    .clusters = rsp_deps_.clusters,
                                    .clock = rsp_deps_.clock,
                                    .member_io = memberIo(rsp_deps_.member_io)},
               rsp_deps_.config.target_namespace, rsp_deps_.retry_delay) {}

SchedulingManagerReconciler::~SchedulingManagerReconciler() { stopAll(); }

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
    KF_TRY(rsp, rspController(rsp_deps_, plugins_));
    KF_TRYV(rsp->start());
    spdlog::info("Started ReplicaSchedulingPreference controller");
    rsp_ = std::move(rsp);
  }
  return plugins_.start(ftc, federated_namespace, *rsp_);
}

void SchedulingManagerReconciler::stopPlugin(const std::string& ftc_name) {
  ControllerPtr last;
  {
    MutexLock lock(mu_);
    if (!rsp_) return;
    plugins_.stop(ftc_name);
    if (plugins_.names().empty()) last = std::move(rsp_);
  }
  if (!last) return;
  last->stop();
  spdlog::info("Stopped ReplicaSchedulingPreference controller");
}

void SchedulingManagerReconciler::stopAll() {
  ControllerPtr rsp;
  {
    MutexLock lock(mu_);
    rsp = std::move(rsp_);
  }
  // The RSP controller's sources and workers first, so nothing reads a plugin that is going;
  // then the plugins, whose sources queue into it, before it goes.
  if (rsp) rsp->stop();
  plugins_.stopAll();
  if (rsp) spdlog::info("Stopped ReplicaSchedulingPreference controller");
}

std::vector<std::string> SchedulingManagerReconciler::plugins() const {
  MutexLock lock(mu_);
  return rsp_ ? plugins_.names() : std::vector<std::string>{};
}

bool SchedulingManagerReconciler::rspControllerRunning() const {
  MutexLock lock(mu_);
  return rsp_ != nullptr;
}

SchedulingManager::SchedulingManager(RspControllerDeps rsp_deps) : rsp_deps_(std::move(rsp_deps)) {}

SchedulingManager::~SchedulingManager() { stop(); }

Status SchedulingManager::start() {
  const std::string& ns = rsp_deps_.config.kubefed_namespace;
  KF_TRY(ftcs, InformerSource::lease(
                   rsp_deps_.host_informers,
                   InformerKey{.cluster = "", .resource = kTypeConfigs, .namespace_name = ns}));
  auto reconciler = std::make_unique<SchedulingManagerReconciler>(ftcs->store(), ns, rsp_deps_);
  reconciler_ = reconciler.get();
  spdlog::info("Starting scheduling manager");
  controller_ = ControllerBuilder(kSchedulingManagerWorkerName, rsp_deps_.clock)
                    .watches(std::move(ftcs), enqueueMapped(schedulingFtcKeys(ns)))
                    .reconcileMetric(kSchedulingManagerMetricName)
                    .complete(std::move(reconciler));
  return controller_->start();
}

void SchedulingManager::stop() {
  if (!controller_) return;
  reconciler_ = nullptr;
  // Its worker, then its reconciler, whose destruction stops the RSP controller and the plugins:
  // no reconcile starts a plugin after they are stopped.
  controller_->stop();
}

std::vector<std::string> SchedulingManager::plugins() const {
  return reconciler_ ? reconciler_->plugins() : std::vector<std::string>{};
}

bool SchedulingManager::rspControllerRunning() const {
  return reconciler_ && reconciler_->rspControllerRunning();
}

}  // namespace kf::scheduling
