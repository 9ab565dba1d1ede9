#include "controllers/manager/controller_manager.h"

#include <spdlog/spdlog.h>

#include "controllers/federatedtypeconfig/ftc_controller.h"
#include "controllers/kubefedcluster/kubefedcluster_controller.h"
#include "controllers/manager/sync_type_controllers.h"
#include "controllers/scheduling/scheduling_manager.h"
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

// Declared in the order they are built; destroyed in reverse, after the manager stopped them.
struct ControllerManager::Parts {
  Parts(ControlPlaneConfig config_in, std::shared_ptr<RestClient> host_in, Clock& clock_in,
        TaskPools pools_in)
      : config(std::move(config_in)),
        host(std::move(host_in)),
        clock(clock_in),
        pools(pools_in),
        // KubeFed's recorders name only the component, not the host.
        events_client(ownHostClient(host, clock)),
        recorders(*events_client, "", clock),
        registry(clock),
        host_informers(
            [client = host](const InformerKey& key) {
              return makeListerWatcher(client, key.resource, key.namespace_name, key.label_selector,
                                       key.field_selector);
            },
            clock, informerOptions()),
        member_informers(
            [this](const InformerKey& key) -> ListerWatcherPtr {
              auto client = registry.client(key.cluster);
              if (!client) return nullptr;
              return makeListerWatcher(std::move(client).value(), key.resource, key.namespace_name,
                                       key.label_selector, key.field_selector);
            },
            clock, informerOptions()),
        cluster_controller(
            KubeFedClusterControllerOptions{.kubefed_namespace = config.kubefed_namespace,
                                            .period = config.health_period,
                                            .timeout = config.health_timeout,
                                            .failure_threshold = config.health_failure_threshold,
                                            .success_threshold = config.health_success_threshold,
                                            .member_qps = config.member_client_qps,
                                            .member_burst = config.member_client_burst,
                                            .member_io = pools.member_io,
                                            .dispatch = pools.dispatch},
            *cluster_controller_client, registry,
            *recorders.forComponent("kubefedcluster-controller"), clock),
        type_controllers(SyncTypeControllers::Deps{.config = config,
                                                   .host = host,
                                                   .registry = registry,
                                                   .host_informers = host_informers,
                                                   .member_informers = member_informers,
                                                   .recorders = recorders,
                                                   .clock = clock,
                                                   .member_io = pools.member_io}) {}

  // Every informer lists, watches and calls its handlers on the process's pools.
  SharedInformerOptions informerOptions() const {
    return SharedInformerOptions{.reflector = {.pool = pools.member_io},
                                 .dispatch = pools.dispatch};
  }

  // Sends the events still queued, then stops every sender (last: controllers record events
  // until they stop).
  RunnableFuncs recorders_runnable{nullptr, [this] { recorders.stopAll(); }};
  // Stops every informer once the controllers that used them have stopped.
  RunnableFuncs informers_runnable{nullptr, [this] {
                                     ftc_informer.release();
                                     member_informers.stopAll();
                                     host_informers.stopAll();
                                   }};
  // The FTC informer is leased and the controller built when leading starts, as KubeFed does.
  Status startFtcController() {
    KF_TRY(lease, host_informers.acquire(InformerKey{.cluster = "",
                                                     .resource = kTypeConfigs,
                                                     .namespace_name = config.kubefed_namespace}));
    ftc_informer = std::move(lease);
    ftc_controller = std::make_unique<FtcController>(
        FtcControllerOptions{
            .kubefed_namespace = config.kubefed_namespace,
            .scoped_control_plane = config.namespaced_scope,
            .raw_resource_status_collection = config.raw_resource_status_collection},
        FtcControllerDeps{.host = *ftc_controller_client,
                          .factory = type_controllers,
                          .events = *recorders.forComponent("federatedtypeconfig-controller"),
                          .clock = clock,
                          .ftc_informer = ftc_informer.informer()});
    return ftc_controller->start();
  }
  RunnableFuncs ftc_runnable{[this] { return startFtcController(); },
                             [this] {
                               if (!ftc_controller) return;
                               ftc_controller->stop();
                               spdlog::info("Stopped FederatedTypeConfig controller");
                             }};
  RunnableFuncs cluster_runnable{[this] { return cluster_controller.start(); },
                                 [this] {
                                   cluster_controller.stop();
                                   spdlog::info("Stopped cluster controller");
                                 }};
  // The scheduling manager is built when leading starts, with a host client of its own.
  Status startSchedulingManager() {
    scheduling_manager =
        std::make_unique<scheduling::SchedulingManager>(scheduling::RspControllerDeps{
            .config = config,
            .host = ownHostClient(host, clock),
            .clusters = registry,
            .host_informers = host_informers,
            .member_informers = member_informers,
            .events = *recorders.forComponent("replicaschedulingpreference-controller"),
            .clock = clock,
            .member_io = pools.member_io});
    return scheduling_manager->start();
  }
  RunnableFuncs scheduling_runnable{[this] { return startSchedulingManager(); },
                                    [this] {
                                      if (!scheduling_manager) return;
                                      scheduling_manager->stop();
                                      spdlog::info("Stopped scheduling manager");
                                    }};

  ControlPlaneConfig config;
  std::shared_ptr<RestClient> host;  // the host informers' client
  Clock& clock;
  const TaskPools pools;
  std::shared_ptr<RestClient> events_client;
  EventRecorders recorders;
  // As in KubeFed, where every controller builds its own clientset, each controller has its own
  // host client and so its own QPS/burst budget (--rest-config-qps/--rest-config-burst).
  std::shared_ptr<RestClient> cluster_controller_client = ownHostClient(host, clock);
  std::shared_ptr<RestClient> ftc_controller_client = ownHostClient(host, clock);
  ClusterRegistry registry;
  InformerManager host_informers;
  InformerManager member_informers;
  KubeFedClusterController cluster_controller;
  SyncTypeControllers type_controllers;
  InformerLease ftc_informer;
  std::unique_ptr<FtcController> ftc_controller;
  std::unique_ptr<scheduling::SchedulingManager> scheduling_manager;
};

ControllerManager::ControllerManager(ControlPlaneConfig config, std::shared_ptr<RestClient> host,
                                     Clock& clock, TaskPools pools)
    : parts_(std::make_unique<Parts>(std::move(config), std::move(host), clock, pools)) {}

ControllerManager::~ControllerManager() = default;

void ControllerManager::addTo(Manager& manager) {
  Parts& p = *parts_;
  manager.add(p.recorders_runnable);
  manager.add(p.informers_runnable);
  manager.add(p.cluster_runnable);
  if (p.config.scheduler_preferences) manager.add(p.scheduling_runnable);
  if (!p.config.push_reconciler) {
    spdlog::info("PushReconciler is disabled: no FederatedTypeConfig controller, no propagation");
    return;
  }
  manager.add(p.ftc_runnable);
}

}  // namespace kf
