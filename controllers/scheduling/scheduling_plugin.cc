#include "controllers/scheduling/scheduling_plugin.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace kf::scheduling {

namespace {

GroupVersionResource resourceOfType(const core::ApiResource& type) {
  return {type.group, type.version, type.plural_name, type.namespaced()};
}

}  // namespace

SchedulingPlugin::SchedulingPlugin(const core::FederatedTypeConfig& ftc,
                                   GroupVersionResource federated_namespace,
                                   std::unique_ptr<InformerSource> federated_objects,
                                   std::unique_ptr<MemberInformers> members)
    : federated_kind_(ftc.spec.federated_type.kind),
      target_type_(ftc.spec.target_type),
      federated_type_(ftc.spec.federated_type),
      federated_(resourceOfType(ftc.spec.federated_type)),
      federated_namespace_(std::move(federated_namespace)),
      federated_objects_(std::move(federated_objects)),
      members_(std::move(members)) {}

Result<std::shared_ptr<SchedulingPlugin>> SchedulingPlugin::lease(
    const core::FederatedTypeConfig& ftc, const core::ApiResource& federated_namespace,
    const std::string& target_namespace, SchedulingPluginDeps deps) {
  // The sync controller's keys for the same type: one informer for both.
  KF_TRY(federated_objects,
         InformerSource::lease(deps.host_informers,
                               InformerKey{.cluster = "",
                                           .resource = resourceOfType(ftc.spec.federated_type),
                                           .namespace_name = target_namespace}));
  auto members = std::make_unique<MemberInformers>(
      MemberInformersOptions{.target = resourceOfType(ftc.spec.target_type),
                             .target_namespace = target_namespace},
      deps.member_informers, deps.clusters, deps.clock, deps.member_io);
  return std::shared_ptr<SchedulingPlugin>(new SchedulingPlugin(
      ftc, resourceOfType(federated_namespace), std::move(federated_objects), std::move(members)));
}

SchedulingPlugin::~SchedulingPlugin() { stop(); }

void SchedulingPlugin::start(EnqueueTarget& rsps, Duration retry_delay) {
  {
    MutexLock lock(mu_);
    if (stopped_ || started_) return;
    started_ = true;
  }
  federated_objects_->start(rsps, enqueueObject());
  members_->start(rsps, enqueueObject(retry_delay));
  spdlog::info("Started scheduling plugin for {}", federated_kind_);
}

void SchedulingPlugin::stop() {
  bool started = false;
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    started = started_;
  }
  // Outside the lock: stopping waits for a handler in progress.
  federated_objects_->stop();
  members_->stop();
  if (started) spdlog::info("Stopped scheduling plugin for {}", federated_kind_);
}

bool SchedulingPlugin::synced() const {
  {
    MutexLock lock(mu_);
    if (stopped_ || !federated_objects_->synced()) return false;
  }
  return members_->synced();
}

ObjectPtr SchedulingPlugin::federatedObject(const std::string& key) const {
  MutexLock lock(mu_);
  if (stopped_) return nullptr;
  return federated_objects_->store().get(key);
}

ObjectPtr SchedulingPlugin::memberWorkload(const std::string& cluster,
                                           const std::string& key) const {
  // NotFound: the cluster has no informer (it just stopped being ready): nothing cached.
  Result<ObjectPtr> cached = members_->cached(cluster, key);
  return cached ? cached.value() : nullptr;
}

}  // namespace kf::scheduling
