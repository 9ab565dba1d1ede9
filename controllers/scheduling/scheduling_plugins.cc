#include "controllers/scheduling/scheduling_plugins.h"

#include <utility>

namespace kf::scheduling {

namespace {

bool sameType(const core::ApiResource& a, const core::ApiResource& b) {
  return a.group == b.group && a.version == b.version && a.kind == b.kind &&
         a.plural_name == b.plural_name && a.scope == b.scope;
}

}  // namespace

SchedulingPlugins::SchedulingPlugins(SchedulingPluginDeps deps, std::string target_namespace,
                                     Duration retry_delay)
    : deps_(deps), target_namespace_(std::move(target_namespace)), retry_delay_(retry_delay) {}

SchedulingPlugins::~SchedulingPlugins() { stopAll(); }

Status SchedulingPlugins::start(const core::FederatedTypeConfig& ftc,
                                const core::ApiResource& federated_namespace, EnqueueTarget& rsps) {
  std::shared_ptr<SchedulingPlugin> replaced;
  {
    MutexLock lock(mu_);
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
  if (replaced) replaced->stop();  // outside the lock: waits for handlers in progress
  KF_TRY(plugin, SchedulingPlugin::lease(ftc, federated_namespace, target_namespace_, deps_));
  plugin->start(rsps, retry_delay_);
  MutexLock lock(mu_);
  plugins_[ftc.name()] = std::move(plugin);
  return boost::outcome_v2::success();
}

void SchedulingPlugins::stop(const std::string& ftc_name) {
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

void SchedulingPlugins::stopAll() {
  std::map<std::string, std::shared_ptr<SchedulingPlugin>> plugins;
  {
    MutexLock lock(mu_);
    plugins.swap(plugins_);
  }
  for (auto& [name, plugin] : plugins) plugin->stop();
}

std::vector<std::string> SchedulingPlugins::names() const {
  MutexLock lock(mu_);
  std::vector<std::string> names;
  for (const auto& [name, plugin] : plugins_) names.push_back(name);
  return names;
}

ScheduledTypePtr SchedulingPlugins::forKind(const std::string& federated_kind) const {
  MutexLock lock(mu_);
  for (const auto& [name, plugin] : plugins_) {
    if (plugin->federatedKind() == federated_kind) return plugin;
  }
  return nullptr;
}

ScheduledTypeLookup SchedulingPlugins::lookup() const {
  return [this](const std::string& federated_kind) { return forKind(federated_kind); };
}

}  // namespace kf::scheduling
