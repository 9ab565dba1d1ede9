#include "controllers/manager/controller_manager.h"

#include <spdlog/spdlog.h>

#include "controllers/federatedtypeconfig/ftc_controller.h"
#include "controllers/kubefedcluster/kubefedcluster_controller.h"
#include "controllers/manager/sync_type_controllers.h"
#include "federation/client/resource_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/events/event_recorders.h"
#include "federation/informer/informer_manager.h"

namespace kf {
namespace {

const GroupVersionResource kTypeConfigs{"core.kubefed.io", "v1beta1", "federatedtypeconfigs", true};

}  // namespace

std::shared_ptr<RestClient> ownHostClient(const std::shared_ptr<RestClient>& shared, Clock& clock) {
  auto own = RestClient::create(shared->config(), clock);
  if (!own) return shared;  // the config already made one client; it cannot fail the second time
  return std::move(own).value();
}

// Declared in the order they are built; destroyed in reverse, after stop().
struct ControllerManager::Parts {
  Parts(ControlPlaneConfig config_in, std::shared_ptr<RestClient> host_in, Clock& clock_in)
      : config(std::move(config_in)),
        host(std::move(host_in)),
        clock(clock_in),
        // KubeFed's recorders name only the component, not the host.
        events_client(ownHostClient(host, clock)),
        recorders(*events_client, "", clock),
        registry(clock),
        host_informers(
            [client = host](const InformerKey& key) {
              return makeListerWatcher(client, key.resource, key.namespace_name, key.label_selector,
                                       key.field_selector);
            },
            clock),
        member_informers(
            [this](const InformerKey& key) -> ListerWatcherPtr {
              auto client = registry.client(key.cluster);
              if (!client) return nullptr;
              return makeListerWatcher(std::move(client).value(), key.resource, key.namespace_name,
                                       key.label_selector, key.field_selector);
            },
            clock) {}

  ControlPlaneConfig config;
  std::shared_ptr<RestClient> host;  // the host informers' client
  Clock& clock;
  std::shared_ptr<RestClient> events_client;
  EventRecorders recorders;
  // As in KubeFed, where every controller builds its own clientset, each controller has its own
  // host client and so its own QPS/burst budget (--rest-config-qps/--rest-config-burst).
  std::shared_ptr<RestClient> cluster_controller_client = ownHostClient(host, clock);
  std::shared_ptr<RestClient> ftc_controller_client = ownHostClient(host, clock);
  ClusterRegistry registry;
  InformerManager host_informers;
  InformerManager member_informers;

  std::unique_ptr<KubeFedClusterController> cluster_controller;
  std::unique_ptr<SyncTypeControllers> type_controllers;
  InformerLease ftc_informer;
  std::unique_ptr<FtcController> ftc_controller;
};

ControllerManager::ControllerManager(ControlPlaneConfig config, std::shared_ptr<RestClient> host,
                                     Clock& clock)
    : parts_(std::make_unique<Parts>(std::move(config), std::move(host), clock)) {}

ControllerManager::~ControllerManager() { stop(); }

Status ControllerManager::start() {
  Parts& p = *parts_;
  KubeFedClusterControllerOptions cluster_options{
      .kubefed_namespace = p.config.kubefed_namespace,
      .period = p.config.health_period,
      .timeout = p.config.health_timeout,
      .failure_threshold = p.config.health_failure_threshold,
      .success_threshold = p.config.health_success_threshold};
  p.cluster_controller = std::make_unique<KubeFedClusterController>(
      cluster_options, *p.cluster_controller_client, p.registry,
      *p.recorders.forComponent("kubefedcluster-controller"), p.clock);
  p.cluster_controller->start();

  if (p.config.scheduler_preferences) {
    // ReplicaSchedulingPreference scheduling is a later milestone (DESIGN.md roadmap 5).
    spdlog::info(
        "SchedulerPreferences is enabled but the scheduling manager is not part of this "
        "build yet; ReplicaSchedulingPreferences are not acted on");
  }
  if (!p.config.push_reconciler) {
    spdlog::info("PushReconciler is disabled: no FederatedTypeConfig controller, no propagation");
    return boost::outcome_v2::success();
  }
  KF_TRY(
      lease,
      p.host_informers.acquire(InformerKey{
          .cluster = "", .resource = kTypeConfigs, .namespace_name = p.config.kubefed_namespace}));
  p.ftc_informer = std::move(lease);
  p.type_controllers = std::make_unique<SyncTypeControllers>(
      SyncTypeControllers::Deps{.config = p.config,
                                .host = p.host,
                                .registry = p.registry,
                                .host_informers = p.host_informers,
                                .member_informers = p.member_informers,
                                .recorders = p.recorders,
                                .clock = p.clock});
  p.ftc_controller = std::make_unique<FtcController>(
      FtcControllerOptions{
          .kubefed_namespace = p.config.kubefed_namespace,
          .scoped_control_plane = p.config.namespaced_scope,
          .raw_resource_status_collection = p.config.raw_resource_status_collection},
      FtcControllerDeps{.host = *p.ftc_controller_client,
                        .factory = *p.type_controllers,
                        .events = *p.recorders.forComponent("federatedtypeconfig-controller"),
                        .clock = p.clock,
                        .ftc_informer = p.ftc_informer.informer()});
  spdlog::info("Starting FederatedTypeConfig controller");
  return p.ftc_controller->start();
}

void ControllerManager::stop() {
  Parts& p = *parts_;
  // Children before what they use: FTC controller (and every sync controller it runs), then the
  // cluster controller, then the shared informers and the event senders.
  if (p.ftc_controller) {
    p.ftc_controller->stop();
    spdlog::info("Stopped FederatedTypeConfig controller");
  }
  p.ftc_informer.release();
  if (p.cluster_controller) {
    p.cluster_controller->stop();
    spdlog::info("Stopped cluster controller");
  }
  p.member_informers.stopAll();
  p.host_informers.stopAll();
  p.recorders.stopAll();
}

}  // namespace kf
