#include "controllers/scheduling/rsp_controller.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "controllers/scheduling/rsp_reconciler.h"
#include "federation/controller/builder.h"

namespace kf::scheduling {

namespace {

const GroupVersionResource kReplicaSchedulingPreferences{"scheduling.kubefed.io", "v1alpha1",
                                                         "replicaschedulingpreferences", true};

bool sameType(const core::ApiResource& a, const core::ApiResource& b) {
  return a.group == b.group && a.version == b.version && a.kind == b.kind &&
         a.plural_name == b.plural_name && a.scope == b.scope;
}

}  // namespace

RspController::RspController(RspControllerDeps deps) : deps_(std::move(deps)) {}

Result<std::unique_ptr<RspController>> RspController::start(RspControllerDeps deps) {
  std::unique_ptr<RspController> self(new RspController(std::move(deps)));
  RspController& c = *self;
  KF_TRY(lease, c.deps_.host_informers.acquire(
                    InformerKey{.cluster = "",
                                .resource = kReplicaSchedulingPreferences,
                                .namespace_name = c.deps_.config.target_namespace}));
  c.rsps_ = std::move(lease);
  RspReconcilerDeps reconciler_deps{
      .rsps = c.rsps_->store(),
      .clusters = c.deps_.clusters,
      .types = [&c](const std::string& kind) { return c.pluginFor(kind); },
      .host = *c.deps_.host,
      .events = c.deps_.events,
      .clock = c.deps_.clock};
  c.controller_ = ControllerBuilder(kRspWorkerName, c.deps_.clock)
                      .watches(c.rsps_.informer())
                      .delays(c.deps_.retry_delay, c.deps_.config.cluster_available_delay)
                      .reconcileMetric(kRspControllerMetricName)
                      .complete(std::make_unique<RspReconciler>(std::move(reconciler_deps)));
  c.availability_ = std::make_unique<ClusterAvailabilityTrigger>(
      c.deps_.clusters, c.deps_.clock, c.deps_.config.cluster_available_delay,
      c.deps_.config.cluster_unavailable_delay, [&c] { c.enqueueAll(); });
  KF_TRYV(c.controller_->start());
  c.availability_->start();
  spdlog::info("Started ReplicaSchedulingPreference controller");
  return self;
}

RspController::~RspController() { stop(); }

void RspController::enqueueAll() {
  for (const std::string& key : rsps_->store().listKeys()) controller_->enqueue(key);
}

ScheduledTypePtr RspController::pluginFor(const std::string& federated_kind) const {
  MutexLock lock(mu_);
  for (const auto& [name, plugin] : plugins_) {
    if (plugin->federatedKind() == federated_kind) return plugin;
  }
  return nullptr;
}

Status RspController::startPlugin(const core::FederatedTypeConfig& ftc,
                                  const core::ApiResource& federated_namespace) {
  std::shared_ptr<SchedulingPlugin> replaced;
  {
    MutexLock lock(mu_);
    if (stopped_) return makeError(Reason::kUnknown, "the RSP controller is stopped");
    auto it = plugins_.find(ftc.name());
    if (it != plugins_.end()) {
      if (sameType(it->second->targetType(), ftc.spec.target_type) &&
          sameType(it->second->federatedType(), ftc.spec.federated_type)) {
        return boost::outcome_v2::success();
      }
      replaced = std::move(it->second);
      plugins_.erase(it);
    }
  }
  if (replaced) replaced->stop();  // outside the lock: joins informer threads
  KF_TRY(plugin, SchedulingPlugin::start(
                     ftc, federated_namespace, deps_.config.target_namespace,
                     SchedulingPluginDeps{
                         .host_informers = deps_.host_informers,
                         .member_informers = deps_.member_informers,
                         .clusters = deps_.clusters,
                         .clock = deps_.clock,
                         .enqueue = [this](const std::string& key) { controller_->enqueue(key); },
                         .enqueue_later =
                             [this](const std::string& key) {
                               controller_->enqueueAfter(key, deps_.retry_delay);
                             }}));
  {
    MutexLock lock(mu_);
    if (!stopped_) {
      plugins_[ftc.name()] = std::move(plugin);
      return boost::outcome_v2::success();
    }
  }
  plugin->stop();  // stop() ran meanwhile
  return makeError(Reason::kUnknown, "the RSP controller is stopped");
}

void RspController::stopPlugin(const std::string& ftc_name) {
  std::shared_ptr<SchedulingPlugin> plugin;
  {
    MutexLock lock(mu_);
    auto it = plugins_.find(ftc_name);
    if (it == plugins_.end()) return;
    plugin = std::move(it->second);
    plugins_.erase(it);
  }
  plugin->stop();
}

std::vector<std::string> RspController::plugins() const {
  MutexLock lock(mu_);
  std::vector<std::string> names;
  for (const auto& [name, plugin] : plugins_) names.push_back(name);
  return names;
}

void RspController::stop() {
  std::map<std::string, std::shared_ptr<SchedulingPlugin>> plugins;
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    plugins = std::move(plugins_);
    plugins_.clear();
  }
  // The triggers and the workers first, so nothing queues or reads a plugin that is going.
  if (availability_) availability_->stop();
  if (controller_) controller_->stop();
  for (auto& [name, plugin] : plugins) plugin->stop();
  rsps_.release();
  spdlog::info("Stopped ReplicaSchedulingPreference controller");
}

}  // namespace kf::scheduling
