#include "sync/controller/sync_controller.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "apis/meta/ascii.h"
#include "federation/controller/builder.h"
#include "federation/controller/cluster_availability_source.h"
#include "federation/controller/member_informers.h"
#include "sync/controller/cluster_labels_source.h"
#include "sync/controller/host_informers.h"
#include "sync/controller/override_policies.h"
#include "sync/controller/sync_reconciler.h"
#include "sync/controller/workload_followers.h"

namespace kf::sync {

namespace {

Result<std::unique_ptr<HostInformers>> leaseHostInformers(const SyncTypeInfo& type,
                                                          const SyncControllerDeps& deps) {
  HostInformersOptions options{.federated = type.federated_resource,
                               .target_namespace = deps.config.target_namespace,
                               .target_is_namespace = type.target_is_namespace,
                               .federated_namespace = std::nullopt};
  if (type.targetNamespaced()) {
    options.federated_namespace = groupVersionResourceOf(deps.federated_namespace_type);
  }
  return HostInformers::start(options, deps.host_informers);
}

std::unique_ptr<MemberInformers> memberInformers(const SyncTypeInfo& type,
                                                 const SyncControllerDeps& deps) {
  return std::make_unique<MemberInformers>(
      MemberInformersOptions{
          .target = type.target_resource,
          .target_namespace = type.targetNamespaced() ? deps.config.target_namespace : ""},
      deps.member_informers, deps.clusters, deps.clock, memberIo(deps.member_io));
}

std::vector<std::string> namespaceName(const Json& object) { return {objectName(object)}; }

// A sync controller's workers, delays and backoff, from the KubeFedConfig.
ControllerBuilder syncControllerBuilder(const SyncTypeInfo& type, const SyncControllerDeps& deps) {
  ControllerBuilder builder(toLower(type.federated_type.kind), deps.clock);
  builder.concurrency(deps.config.sync_max_concurrent_reconciles)
      .delays(deps.retry_delay, deps.config.cluster_available_delay)
      .backoff(deps.config.sync_initial_backoff, deps.config.sync_max_backoff);
  return builder;
}

// Override policies (not KubeFed's): re-propagate on a policy change or a cluster relabelled.
// Nothing is added when the policy CRDs are not installed.
ControllerBuilder& watchOverridePolicies(ControllerBuilder& builder,
                                         const OverridePolicies* policies,
                                         const HostInformers& host, ClusterRegistry& clusters) {
  if (policies == nullptr || !policies->active()) return builder;
  auto all_keys = [&host] { return host.federatedKeys(); };
  builder.watches(policies->namespacedSource(), policies->policyHandler(all_keys));
  if (SourcePtr cluster_scoped = policies->clusterSource()) {
    builder.watches(std::move(cluster_scoped), policies->policyHandler(all_keys));
  }
  return builder.watches(std::make_unique<ClusterLabelsSource>(clusters),
                         enqueueAll(policies->whilePoliciesExist(all_keys)));
}

}  // namespace

core::ApiResource defaultFederatedNamespaceType() {
  core::ApiResource type;
  type.group = "types.kubefed.io";
  type.version = "v1beta1";
  type.kind = "FederatedNamespace";
  type.plural_name = "federatednamespaces";
  type.scope = std::string(core::kScopeNamespaced);
  return type;
}

Result<ControllerPtr> syncController(const core::FederatedTypeConfig& ftc,
                                     SyncControllerDeps deps) {
  KF_TRY(type, syncTypeInfo(ftc, deps.config));
  KF_TRY(host_informers, leaseHostInformers(type, deps));
  auto members = memberInformers(type, deps);
  auto policies = OverridePolicies::start(
      {.federated_kind = type.federated_type.kind,
       .target_namespace = deps.config.target_namespace},
      deps.host_informers, deps.host,
      deps.recorder ? deps.recorder(toLower(type.federated_type.kind) + "-controller") : nullptr);
  auto reconciler = std::make_unique<SyncReconciler>(type, deps, std::move(host_informers),
                                                     *members, std::move(policies));
  const HostInformers& host = reconciler->host();
  const OverridePolicies* override_policies = reconciler->overridePolicies();
  auto federated_updates = reconciler->federatedUpdateFilter();
  auto member_event_delay = reconciler->memberEventDelay(deps.retry_delay);
  spdlog::info("Starting sync controller for {}", type.federated_type.kind);
  ControllerBuilder builder = syncControllerBuilder(type, deps);
  watchOverridePolicies(builder, override_policies, host, deps.clusters);
  if (WorkloadFollowers* followers = reconciler->workloadFollowers()) {
    builder.watches(followers->source(), enqueueObject());  // idle until an object follows
  }
  return builder
      .watches(host.federatedSource(), enqueueObject().updatesWhen(std::move(federated_updates)))
      .watches(host.namespacesSource(), enqueueMapped(namespaceName))
      .watches(host.federatedNamespacesSource(), enqueueMapped(host.federatedKeysInNamespaceOf()))
      .watches(std::move(members), enqueueObject().delayedBy(std::move(member_event_delay)))
      .watches(std::make_unique<ClusterAvailabilitySource>(deps.clusters, deps.clock, deps.config),
               enqueueAll([&host] { return host.federatedKeys(); }, deps.small_delay))
      .complete(std::move(reconciler));
}

}  // namespace kf::sync
