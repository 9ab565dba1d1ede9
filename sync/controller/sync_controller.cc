#include "sync/controller/sync_controller.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <thread>
#include <utility>

#include "federation/cluster/availability_trigger.h"
#include "federation/controller/builder.h"
#include "federation/controller/controller.h"
#include "federation/controller/member_informers.h"
#include "federation/runtime/task_pool.h"
#include "sync/controller/host_informers.h"
#include "sync/controller/sync_context.h"
#include "sync/controller/sync_reconciler.h"
#include "sync/io/cluster_executors.h"
#include "sync/io/version_manager.h"

namespace kf::sync {

namespace {

std::string lowered(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
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

struct SyncController::Parts {
  Parts(SyncTypeInfo info, SyncControllerDeps controller_deps)
      : type(std::move(info)),
        deps(std::move(controller_deps)),
        executors(memberIoPool(), deps.dispatch.per_cluster_concurrency),
        versions(*deps.host, VersionManagerOptions{.namespaced = type.federated_type.namespaced(),
                                                   .target_namespace = deps.config.target_namespace,
                                                   .target_kind = type.target_type.kind}),
        // A cluster that became ready or unready changes placement outcomes: every object is
        // looked at again once the caches had time to follow.
        cluster_availability(deps.clusters, deps.clock, deps.config.cluster_available_delay,
                             deps.config.cluster_unavailable_delay, [this] { enqueueAll(); }) {}
  // A start() that fails half-way drops the parts without SyncController::stop(): the cluster
  // subscription, whose callback holds `this`, and the leases must still go first.
  ~Parts() { stop(); }
  Parts(const Parts&) = delete;
  Parts& operator=(const Parts&) = delete;

  // The controller over the leased host informers; the context must be built.
  ControllerPtr buildController() {
    ControllerPtr controller =
        ControllerBuilder(lowered(type.federated_type.kind), deps.clock)
            .concurrency(deps.config.sync_max_concurrent_reconciles)
            .delays(deps.retry_delay, deps.config.cluster_available_delay)
            .backoff(deps.config.sync_initial_backoff, deps.config.sync_max_backoff)
            .complete(std::make_unique<SyncReconciler>(*context, [this] { return synced(); }));
    host_informers->watchAll(*controller, [this](const Json& old_object, const Json& new_object) {
      // Asked first: recognising an echo also ends its record.
      return !context->written_objects.isActedOnEcho(objectKey(new_object),
                                                     objectResourceVersion(new_object)) &&
             objectChanged(old_object, new_object);
    });
    return controller;
  }

  bool synced() {
    if (!host_informers->synced() || !member_informers->synced()) {
      return false;
    }
    Status loaded = versions.load();
    if (!loaded) {
      spdlog::warn("{}: {}", lowered(type.federated_type.kind), loaded.error().describe());
      return false;
    }
    return true;
  }

  void enqueueAll() {
    for (const std::string& key : host_informers->federatedKeys()) {
      worker->enqueueAfter(key, deps.small_delay);
    }
  }

  // A cluster that left takes its executor lane with it. Called on the registry writer's thread:
  // forget() cancels the cluster's queue but does not wait for its running operations.
  void forgetRemovedCluster(const ClusterEvent& event) {
    if (event.change == ClusterChange::kRemoved) {
      executors.forget(event.cluster.name);
    }
  }

  void stop() {
    if (stopping.exchange(true)) {
      return;
    }
    cluster_availability.stop();  // cancels the delays, waits for one enqueueing everything
    if (removal_listener) {
      deps.clusters.unsubscribe(*removal_listener);
    }
    executors.stop();  // cancels queued member operations, waits for running ones
    if (worker) {
      worker->stop();  // joins the reconciles, which see `stopping` and write nothing more
    }
    if (version_loader.joinable()) {
      version_loader.join();  // a list in progress ends within the client's request timeout
    }
    if (member_informers) {
      member_informers->stop();
    }
    if (host_informers) {
      host_informers->stop();
    }
  }

  const SyncTypeInfo type;
  SyncControllerDeps deps;
  std::atomic<bool> stopping{false};
  ClusterExecutors executors;
  VersionManager versions;
  // Loads `versions` while the informers list: the first reconcile needs both, and each can take
  // tens of seconds with tens of thousands of objects. Joined before `versions` goes.
  std::jthread version_loader;
  std::unique_ptr<HostInformers> host_informers;
  std::unique_ptr<MemberInformers> member_informers;
  std::unique_ptr<SyncContext> context;
  ControllerPtr worker;  // built once the host informers are leased
  std::optional<ListenerId> removal_listener;
  // Last, so that it is destroyed first: its timers enqueue into `worker`.
  ClusterAvailabilityTrigger cluster_availability;
};

SyncController::SyncController(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

SyncController::~SyncController() = default;

void SyncController::stop() {
  if (parts_) {
    parts_->stop();
  }
}

bool SyncController::synced() const { return parts_->synced(); }

Result<std::unique_ptr<SyncController>> SyncController::start(const core::FederatedTypeConfig& ftc,
                                                              SyncControllerDeps deps) {
  KF_TRY(info, syncTypeInfo(ftc, deps.config));
  const std::string component = lowered(info.federated_type.kind) + "-controller";
  auto parts = std::make_unique<Parts>(std::move(info), std::move(deps));
  Parts& p = *parts;
  const SyncTypeInfo& type = p.type;

  HostInformersOptions host_options{.federated = type.federated_resource,
                                    .target_namespace = p.deps.config.target_namespace,
                                    .target_is_namespace = type.target_is_namespace,
                                    .federated_namespace = std::nullopt};
  if (type.targetNamespaced()) {
    host_options.federated_namespace = groupVersionResourceOf(p.deps.federated_namespace_type);
  }
  KF_TRY(host_informers, HostInformers::start(host_options, p.deps.host_informers));
  p.host_informers = std::move(host_informers);
  // A failure here is retried, and logged, by the first check that the caches are synced.
  p.version_loader = std::jthread([&p] { (void)p.versions.load(); });

  p.member_informers = std::make_unique<MemberInformers>(
      MemberInformersOptions{
          .target = type.target_resource,
          .target_namespace = type.targetNamespaced() ? p.deps.config.target_namespace : ""},
      p.deps.member_informers, p.deps.clusters, p.deps.clock,
      [&p](const std::string& key) { p.worker->enqueueAfter(key, p.deps.retry_delay); });

  p.context = std::unique_ptr<SyncContext>(
      new SyncContext{.type = type,
                      .host = p.deps.host,
                      .clusters = p.deps.clusters,
                      .host_informers = *p.host_informers,
                      .member_informers = *p.member_informers,
                      .versions = p.versions,
                      .executors = p.executors,
                      .recorder = p.deps.recorder ? p.deps.recorder(component) : nullptr,
                      .clock = p.deps.clock,
                      .operation_timeout = p.deps.dispatch.operation_timeout,
                      .stopping = p.stopping});
  p.worker = p.buildController();

  p.removal_listener =
      p.deps.clusters.subscribe([&p](const ClusterEvent& event) { p.forgetRemovedCluster(event); });
  p.cluster_availability.start();
  p.member_informers->start();
  KF_TRYV(p.worker->start());
  spdlog::info("Starting sync controller for {}", type.federated_type.kind);
  return std::unique_ptr<SyncController>(new SyncController(std::move(parts)));
}

}  // namespace kf::sync
