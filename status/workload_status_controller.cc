#include "status/workload_status_controller.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "apis/meta/ascii.h"
#include "apis/meta/time.h"
#include "federation/client/resource_client.h"

namespace kf::status {
namespace {

constexpr int kWriteAttempts = 3;

}  // namespace

WorkloadStatusReconciler::WorkloadStatusReconciler(TypeResources type, WorkloadKind kind,
                                                   StatusControllerDeps deps,
                                                   const InformerSource& federated,
                                                   const MemberInformers& members)
    : type_(std::move(type)),
      kind_(kind),
      deps_(std::move(deps)),
      federated_(federated),
      members_(members) {}

ReconcileResult WorkloadStatusReconciler::reconcile(const std::string& key) {
  if (!federated_.synced() || !members_.synced()) return ReconcileStatus::kNotSynced;
  const ObjectPtr federated_object = federated_.store().get(key);
  if (!federated_object || hasDeletionTimestamp(*federated_object)) {
    return ReconcileStatus::kOk;
  }
  KF_TRY(member_objects, readyMemberObjects(type_, members_, deps_.clusters, key));
  const WorkloadStatus desired =
      summarizeWorkload(kind_, clusterWorkloads(kind_, *federated_object, member_objects));
  return write(*federated_object, desired);
}

ReconcileResult WorkloadStatusReconciler::write(Json object, const WorkloadStatus& desired) {
  if (schema_lacks_workload_) return ReconcileStatus::kOk;
  ResourceClient objects(*deps_.host, type_.federated, objectNamespace(object));
  ApiError last = makeError(Reason::kConflict, "no attempt made");
  for (int attempt = 0; attempt < kWriteAttempts; ++attempt) {
    std::optional<Json> merged =
        mergeWorkloadStatus(object, desired, meta::formatTime(deps_.clock.wallNow()));
    if (!merged) return ReconcileStatus::kOk;
    object["status"] = std::move(*merged);
    Result<Json> written = objects.updateStatus(object);
    if (written) {
      noticePrunedWorkload(written.value());
      return ReconcileStatus::kOk;
    }
    last = written.error();
    if (isNotFound(last)) return ReconcileStatus::kOk;  // deleted meanwhile
    if (!isConflict(last)) break;
    Result<Json> current = objects.get(objectName(object));
    if (!current) {
      if (isNotFound(current.error())) return ReconcileStatus::kOk;
      last = current.error();
      break;
    }
    object = std::move(current).value();
  }
  last.message = "writing the workload status of " + federatedKind() + " \"" + objectKey(object) +
                 "\": " + last.message;
  return last;
}

void WorkloadStatusReconciler::noticePrunedWorkload(const Json& written) {
  if (nestedField(written, {"status", "workload"}) != nullptr) return;
  if (schema_lacks_workload_.exchange(true)) return;
  spdlog::warn(
      "The CRD of {} does not declare status.workload, so the API server drops the workload "
      "status; generate the CRD again with this project's `kubefedctl enable` to get it. No "
      "more workload status is written for this type until the controller restarts.",
      federatedKind());
}

Result<ControllerPtr> workloadStatusController(const core::FederatedTypeConfig& ftc,
                                               WorkloadKind kind, StatusControllerDeps deps) {
  TypeResources type = typeResourcesOf(ftc, deps.config);
  KF_TRY(sources, leaseTypeSources(type, deps));
  const std::string& federated_kind = type.ftc.spec.federated_type.kind;
  spdlog::info("Starting workload status controller for \"{}\" ({} status)", federated_kind,
               core::workloadKindName(kind));
  ControllerBuilder builder = statusControllerBuilder(toLower(federated_kind) + "-workload", deps);
  auto reconciler = std::make_unique<WorkloadStatusReconciler>(
      std::move(type), kind, deps, *sources.federated, *sources.members);
  return builder.watches(std::move(sources.federated), enqueueObject())
      .watches(std::move(sources.members), enqueueObject(deps.workload_delay))
      .reconcileMetric("workloadstatuscontroller")
      .complete(std::move(reconciler));
}

}  // namespace kf::status
