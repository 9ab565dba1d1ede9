#pragma once
// The scheduling plugins that run, one per schedulable FederatedTypeConfig, each feeding the RSP
// controller (rsp_controller.h) through its sources and read by its reconciles. Thread-safe;
// starting and stopping a plugin happen outside the lock, so readers are never blocked by them.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "apis/core/federated_type_config.h"
#include "controllers/scheduling/scheduled_type.h"
#include "controllers/scheduling/scheduling_plugin.h"
#include "federation/controller/handler.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::scheduling {

class SchedulingPlugins {
 public:
  // `target_namespace`: where the plugins watch ("" = all namespaces); `retry_delay`: how long
  // after a member workload's change its RSP is queued.
  SchedulingPlugins(SchedulingPluginDeps deps, std::string target_namespace, Duration retry_delay);
  // stopAll().
  ~SchedulingPlugins();
  SchedulingPlugins(const SchedulingPlugins&) = delete;
  SchedulingPlugins& operator=(const SchedulingPlugins&) = delete;

  // Starts the plugin for `ftc` (its target and federated types), its sources queueing into
  // `rsps`, which must outlive the plugin's stop; a plugin of the same FTC started with other
  // types is replaced. `federated_namespace` is the `namespaces` FTC's federated type.
  Status start(const core::FederatedTypeConfig& ftc, const core::ApiResource& federated_namespace,
               EnqueueTarget& rsps) KF_EXCLUDES(mu_);
  // Stops the FTC's plugin, if one runs.
  void stop(const std::string& ftc_name) KF_EXCLUDES(mu_);
  void stopAll() KF_EXCLUDES(mu_);

  // FTC names whose plugin runs, sorted.
  std::vector<std::string> names() const KF_EXCLUDES(mu_);
  // The plugin scheduling RSPs whose spec.targetKind is `federated_kind`; null when none runs.
  ScheduledTypePtr forKind(const std::string& federated_kind) const KF_EXCLUDES(mu_);
  // forKind() as the RSP reconciler looks types up; valid while this lives.
  ScheduledTypeLookup lookup() const;

 private:
  SchedulingPluginDeps deps_;
  const std::string target_namespace_;
  const Duration retry_delay_;
  mutable Mutex mu_;
  std::map<std::string, std::shared_ptr<SchedulingPlugin>> plugins_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::scheduling
