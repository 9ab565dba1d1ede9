#include "status/service_status_controller.h"

#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

#include "apis/meta/ascii.h"
#include "federation/client/resource_client.h"
#include "federation/controller/cluster_availability_source.h"

namespace kf::status {

ServiceStatusReconciler::ServiceStatusReconciler(TypeResources type, core::ApiResource status_type,
                                                 StatusControllerDeps deps,
                                                 const InformerSource& federated,
                                                 const InformerSource& status_objects,
                                                 const MemberInformers& members)
    : type_(std::move(type)),
      status_type_(std::move(status_type)),
      status_resource_(resourceOf(status_type_)),
      deps_(std::move(deps)),
      federated_(federated),
      status_objects_(status_objects),
      members_(members) {}

ReconcileResult ServiceStatusReconciler::reconcile(const std::string& key) {
  if (!federated_.synced() || !status_objects_.synced() || !members_.synced()) {
    return ReconcileStatus::kNotSynced;
  }
  const ObjectPtr federated_object = federated_.store().get(key);
  // Gone or going: garbage collection removes the status object with its owner.
  if (!federated_object || hasDeletionTimestamp(*federated_object)) {
    return ReconcileStatus::kOk;
  }
  KF_TRY(ready, readyMemberObjects(type_, members_, deps_.clusters, key));
  std::vector<MemberObject> ready_members;
  for (auto& [cluster, object] : ready) ready_members.push_back({cluster, std::move(object)});
  const ObjectPtr existing = status_objects_.store().get(key);
  StatusObjectPlan plan = planStatusObject(*federated_object, status_type_, existing.get(),
                                           clusterStatusOf(std::move(ready_members)));
  return write(key, plan, objectNamespace(*federated_object));
}

ReconcileResult ServiceStatusReconciler::write(const std::string& key, const StatusObjectPlan& plan,
                                               const std::string& ns) {
  if (plan.write == StatusObjectWrite::kNone) return ReconcileStatus::kOk;
  ResourceClient objects(*deps_.host, status_resource_, ns);
  const bool create = plan.write == StatusObjectWrite::kCreate;
  Result<Json> written = create ? objects.create(plan.object) : objects.update(plan.object);
  if (!written) {
    // KubeFed looks again after the retry delay instead of backing off.
    spdlog::error("Failed to {} status object for federated type {} \"{}\": {}",
                  create ? "create" : "update", status_type_.kind, key, written.error().describe());
    return ReconcileStatus::kNeedsRecheck;
  }
  spdlog::debug("{} {} \"{}\"", create ? "Created" : "Updated", status_type_.kind, key);
  return ReconcileStatus::kOk;
}

namespace {

Result<core::ApiResource> statusTypeOf(const TypeResources& type) {
  if (!type.ftc.spec.status_type) {
    return makeError(Reason::kInvalid, "Status collection is not supported for \"" +
                                           type.ftc.spec.federated_type.kind +
                                           "\": its FederatedTypeConfig has no statusType");
  }
  return *type.ftc.spec.status_type;
}

// The type's status objects on the host.
Result<std::unique_ptr<InformerSource>> leaseStatusObjects(const core::ApiResource& status_type,
                                                           const StatusControllerDeps& deps) {
  const GroupVersionResource resource = resourceOf(status_type);
  return InformerSource::lease(
      deps.host_informers,
      {.cluster = "",
       .resource = resource,
       .namespace_name = resource.namespaced ? deps.config.target_namespace : "",
       .label_selector = "",
       .field_selector = ""});
}

}  // namespace

Result<ControllerPtr> serviceStatusController(const core::FederatedTypeConfig& ftc,
                                              StatusControllerDeps deps) {
  TypeResources type = typeResourcesOf(ftc, deps.config);
  KF_TRY(status_type, statusTypeOf(type));
  KF_TRY(sources, leaseTypeSources(type, deps));
  KF_TRY(status_objects, leaseStatusObjects(status_type, deps));
  const InformerSource& federated = *sources.federated;
  auto reconciler = std::make_unique<ServiceStatusReconciler>(type, status_type, deps, federated,
                                                              *status_objects, *sources.members);
  spdlog::info("Starting status controller for \"{}\"", type.ftc.spec.federated_type.kind);
  return statusControllerBuilder(toLower(status_type.kind), deps)
      .watches(std::move(sources.federated), enqueueObject())
      .watches(std::move(status_objects), enqueueObject())
      .watches(std::move(sources.members), enqueueObject(deps.retry_delay))
      .watches(std::make_unique<ClusterAvailabilitySource>(deps.clusters, deps.clock, deps.config),
               enqueueAll([&federated] { return federated.keys(); }, deps.small_delay))
      .reconcileMetric("statuscontroller")
      .complete(std::move(reconciler));
}

}  // namespace kf::status
