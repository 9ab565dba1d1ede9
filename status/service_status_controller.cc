#include "status/service_status_controller.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <utility>
#include <vector>

#include "federation/client/resource_client.h"
#include "federation/cluster/availability_trigger.h"
#include "federation/controller/builder.h"
#include "federation/controller/member_informers.h"
#include "status/service_status.h"
#include "status/type_resources.h"

namespace kf::status {

struct ServiceStatusController::Parts {
  Parts(TypeResources type_in, core::ApiResource status_type_in, StatusControllerDeps deps_in)
      : type(std::move(type_in)),
        status_type(std::move(status_type_in)),
        status_resource(resourceOf(status_type)),
        deps(std::move(deps_in)) {}
  ~Parts() { stop(); }
  Parts(const Parts&) = delete;
  Parts& operator=(const Parts&) = delete;

  bool synced() const {
    return federated->hasSynced() && status_objects->hasSynced() && members->synced();
  }

  ReconcileResult reconcile(const std::string& key) {
    if (!synced()) return ReconcileStatus::kNotSynced;
    const ObjectPtr federated_object = federated->store().get(key);
    // Gone or going: garbage collection removes the status object with its owner.
    if (!federated_object || hasDeletionTimestamp(*federated_object)) {
      return ReconcileStatus::kOk;
    }
    std::vector<MemberObject> ready_members;
    for (const ClusterSnapshot& cluster : deps.clusters.clusters()) {
      if (!cluster.ready) continue;
      Result<ObjectPtr> cached = members->cached(cluster.name, key);
      if (!cached) {
        ApiError error = cached.error();
        error.message = "reading " + type.ftc.spec.target_type.kind + " \"" + key +
                        "\" of cluster \"" + cluster.name + "\": " + error.message;
        return error;
      }
      ready_members.push_back({cluster.name, std::move(cached).value()});
    }
    const ObjectPtr existing = status_objects->store().get(key);
    StatusObjectPlan plan = planStatusObject(*federated_object, status_type, existing.get(),
                                             clusterStatusOf(std::move(ready_members)));
    return write(key, plan, objectNamespace(*federated_object));
  }

  ReconcileResult write(const std::string& key, const StatusObjectPlan& plan,
                        const std::string& ns) {
    if (plan.write == StatusObjectWrite::kNone) return ReconcileStatus::kOk;
    ResourceClient objects(*deps.host, status_resource, ns);
    const bool create = plan.write == StatusObjectWrite::kCreate;
    Result<Json> written = create ? objects.create(plan.object) : objects.update(plan.object);
    if (!written) {
      // KubeFed looks again after the retry delay instead of backing off.
      spdlog::error("Failed to {} status object for federated type {} \"{}\": {}",
                    create ? "create" : "update", status_type.kind, key,
                    written.error().describe());
      return ReconcileStatus::kNeedsRecheck;
    }
    spdlog::debug("{} {} \"{}\"", create ? "Created" : "Updated", status_type.kind, key);
    return ReconcileStatus::kOk;
  }

  void enqueueAll() {
    for (const std::string& key : federated->store().listKeys()) {
      controller->enqueueAfter(key, deps.small_delay);
    }
  }

  void stop() {
    if (stopped.exchange(true)) return;
    // Event sources first, then the workers, then what the reconciles read.
    if (cluster_trigger) cluster_trigger->stop();
    if (controller) controller->stop();
    if (members) members->stop();
    status_objects.release();
    federated.release();
    spdlog::info("Stopped status controller for \"{}\"", type.ftc.spec.federated_type.kind);
  }

  const TypeResources type;
  const core::ApiResource status_type;
  const GroupVersionResource status_resource;
  StatusControllerDeps deps;
  InformerLease federated;
  InformerLease status_objects;
  std::unique_ptr<MemberInformers> members;
  ControllerPtr controller;
  std::unique_ptr<ClusterAvailabilityTrigger> cluster_trigger;
  std::atomic<bool> stopped{false};
};

ServiceStatusController::ServiceStatusController(std::unique_ptr<Parts> parts)
    : parts_(std::move(parts)) {}

ServiceStatusController::~ServiceStatusController() { stop(); }

void ServiceStatusController::stop() {
  if (parts_) parts_->stop();
}

Result<std::unique_ptr<ServiceStatusController>> ServiceStatusController::start(
    const core::FederatedTypeConfig& ftc, StatusControllerDeps deps) {
  TypeResources type = typeResourcesOf(ftc, deps.config);
  if (!type.ftc.spec.status_type) {
    return makeError(Reason::kInvalid, "Status collection is not supported for \"" +
                                           type.ftc.spec.federated_type.kind +
                                           "\": its FederatedTypeConfig has no statusType");
  }
  core::ApiResource status_type = *type.ftc.spec.status_type;
  auto parts = std::make_unique<Parts>(std::move(type), std::move(status_type), std::move(deps));
  Parts& p = *parts;
  const ControlPlaneConfig& config = p.deps.config;

  KF_TRY(federated, p.deps.host_informers.acquire(p.type.federated_key));
  p.federated = std::move(federated);
  KF_TRY(status_objects,
         p.deps.host_informers.acquire(InformerKey{
             .cluster = "",
             .resource = p.status_resource,
             .namespace_name = p.status_resource.namespaced ? config.target_namespace : "",
             .label_selector = "",
             .field_selector = ""}));
  p.status_objects = std::move(status_objects);

  p.controller = ControllerBuilder(lowerAscii(p.status_type.kind), p.deps.clock)
                     .watches(p.federated.informer())
                     .watches(p.status_objects.informer())
                     .concurrency(config.status_max_concurrent_reconciles)
                     .delays(p.deps.retry_delay, config.cluster_available_delay)
                     .reconcileMetric("statuscontroller")
                     .complete(std::make_unique<ReconcilerFunc>(
                         [&p](const std::string& key) { return p.reconcile(key); }));
  p.members = std::make_unique<MemberInformers>(
      MemberInformersOptions{.target = p.type.target, .target_namespace = p.type.member_namespace},
      p.deps.member_informers, p.deps.clusters, p.deps.clock,
      [&p](const std::string& key) { p.controller->enqueueAfter(key, p.deps.retry_delay); });
  p.cluster_trigger = std::make_unique<ClusterAvailabilityTrigger>(
      p.deps.clusters, p.deps.clock, config.cluster_available_delay,
      config.cluster_unavailable_delay, [&p] { p.enqueueAll(); });

  p.members->start();
  KF_TRYV(p.controller->start());
  p.cluster_trigger->start();
  spdlog::info("Starting status controller for \"{}\"", p.type.ftc.spec.federated_type.kind);
  return std::unique_ptr<ServiceStatusController>(new ServiceStatusController(std::move(parts)));
}

}  // namespace kf::status
