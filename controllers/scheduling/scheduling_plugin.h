#pragma once
// One schedulable type while its FederatedTypeConfig propagates (KubeFed's scheduling plugin for
// deployments.apps or replicasets.apps, spec §2.7): a host informer on the federated type and a
// member informer per ready cluster on the target type (managed-labeled). Both are leased from the
// shared InformerManagers with the sync controller's keys, so the sync controller of the same
// type and this plugin share one list/watch per cluster.
//
// Its two sources feed the RSP controller: a federated object's change queues the RSP of the
// same name at once; a member workload's after the retry delay, as in KubeFed.

#include <memory>
#include <string>

#include "apis/core/federated_type_config.h"
#include "controllers/scheduling/scheduled_type.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/informer_source.h"
#include "federation/controller/member_informers.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::scheduling {

// Every reference must outlive the plugin.
struct SchedulingPluginDeps {
  InformerManager& host_informers;
  InformerManager& member_informers;
  ClusterRegistry& clusters;
  Clock& clock;
  TaskPool& member_io;  // where the member informer leases run
};

class SchedulingPlugin final : public ScheduledType {
 public:
  // Leases the informers for the FTC's types; `federated_namespace` is the `namespaces` FTC's
  // federated type, `target_namespace` "" for all namespaces. Fails when the host informer
  // cannot be started.
  static Result<std::shared_ptr<SchedulingPlugin>> lease(
      const core::FederatedTypeConfig& ftc, const core::ApiResource& federated_namespace,
      const std::string& target_namespace, SchedulingPluginDeps deps);
  // stop(); the leases go with the plugin.
  ~SchedulingPlugin() override;
  SchedulingPlugin(const SchedulingPlugin&) = delete;
  SchedulingPlugin& operator=(const SchedulingPlugin&) = delete;

  // Starts the sources: the keys of changed federated objects go to `rsps` at once, those of
  // changed member workloads after `retry_delay`. Once only.
  void start(EnqueueTarget& rsps, Duration retry_delay) KF_EXCLUDES(mu_);
  // Stops the sources (no key reaches the RSP controller after it returns); afterwards the
  // plugin reports itself not synced and no federated object. Idempotent.
  void stop() KF_EXCLUDES(mu_);

  const std::string& federatedKind() const { return federated_kind_; }
  // The FTC's types this plugin was started with: a change needs a new plugin.
  const core::ApiResource& targetType() const { return target_type_; }
  const core::ApiResource& federatedType() const { return federated_type_; }

  const GroupVersionResource& federatedResource() const override { return federated_; }
  const GroupVersionResource& federatedNamespaceResource() const override {
    return federated_namespace_;
  }
  bool synced() const override KF_EXCLUDES(mu_);
  ObjectPtr federatedObject(const std::string& key) const override KF_EXCLUDES(mu_);
  ObjectPtr memberWorkload(const std::string& cluster, const std::string& key) const override;

 private:
  SchedulingPlugin(const core::FederatedTypeConfig& ftc, GroupVersionResource federated_namespace,
                   std::unique_ptr<InformerSource> federated_objects,
                   std::unique_ptr<MemberInformers> members);

  const std::string federated_kind_;
  const core::ApiResource target_type_;
  const core::ApiResource federated_type_;
  const GroupVersionResource federated_;
  const GroupVersionResource federated_namespace_;
  const std::unique_ptr<InformerSource> federated_objects_;
  const std::unique_ptr<MemberInformers> members_;
  mutable Mutex mu_;
  bool started_ KF_GUARDED_BY(mu_) = false;
  bool stopped_ KF_GUARDED_BY(mu_) = false;
};

}  // namespace kf::scheduling
