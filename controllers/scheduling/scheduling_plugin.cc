#include "controllers/scheduling/scheduling_plugin.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "federation/controller/change_trigger.h"

namespace kf::scheduling {

namespace {

GroupVersionResource resourceOfType(const core::ApiResource& type) {
  return {type.group, type.version, type.plural_name, type.namespaced()};
}

}  // namespace

SchedulingPlugin::SchedulingPlugin(const core::FederatedTypeConfig& ftc,
                                   GroupVersionResource federated_namespace,
                                   const std::string& target_namespace, SchedulingPluginDeps deps)
    : federated_kind_(ftc.spec.federated_type.kind),
      target_type_(ftc.spec.target_type),
      federated_type_(ftc.spec.federated_type),
      federated_(resourceOfType(ftc.spec.federated_type)),
      federated_namespace_(std::move(federated_namespace)),
      members_(MemberInformersOptions{.target = resourceOfType(ftc.spec.target_type),
                                      .target_namespace = target_namespace},
               deps.member_informers, deps.clusters, deps.clock, std::move(deps.enqueue_later)) {}

Result<std::shared_ptr<SchedulingPlugin>> SchedulingPlugin::start(
    const core::FederatedTypeConfig& ftc, const core::ApiResource& federated_namespace,
    const std::string& target_namespace, SchedulingPluginDeps deps) {
  InformerManager& host_informers = deps.host_informers;
  auto enqueue = std::move(deps.enqueue);
  std::shared_ptr<SchedulingPlugin> plugin(new SchedulingPlugin(
      ftc, resourceOfType(federated_namespace), target_namespace, std::move(deps)));
  // The sync controller's key for the same type: one informer for both.
  KF_TRY(lease,
         host_informers.acquire(InformerKey{
             .cluster = "", .resource = plugin->federated_, .namespace_name = target_namespace}));
  lease.addEventHandler(std::make_shared<ChangeTrigger>(
      [enqueue = std::move(enqueue)](const Json& object) { enqueue(objectKey(object)); }));
  {
    MutexLock lock(plugin->mu_);
    plugin->federated_lease_ = std::move(lease);
  }
  plugin->members_.start();
  spdlog::info("Started scheduling plugin for {}", plugin->federated_kind_);
  return plugin;
}

SchedulingPlugin::~SchedulingPlugin() { stop(); }

void SchedulingPlugin::stop() {
  InformerLease lease;
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    lease = std::move(federated_lease_);
  }
  // Outside the lock: releasing waits for a handler in progress.
  lease.release();
  members_.stop();
  spdlog::info("Stopped scheduling plugin for {}", federated_kind_);
}

bool SchedulingPlugin::synced() const {
  {
    MutexLock lock(mu_);
    if (stopped_ || !federated_lease_ || !federated_lease_->hasSynced()) return false;
  }
  return members_.synced();
}

ObjectPtr SchedulingPlugin::federatedObject(const std::string& key) const {
  MutexLock lock(mu_);
  if (stopped_ || !federated_lease_) return nullptr;
  return federated_lease_->store().get(key);
}

ObjectPtr SchedulingPlugin::memberWorkload(const std::string& cluster,
                                           const std::string& key) const {
  // NotFound: the cluster has no informer (it just stopped being ready): nothing cached.
  Result<ObjectPtr> cached = members_.cached(cluster, key);
  return cached ? cached.value() : nullptr;
}

}  // namespace kf::scheduling
