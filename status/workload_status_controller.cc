#include "status/workload_status_controller.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <utility>
#include <vector>

#include "apis/meta/time.h"
#include "federation/client/resource_client.h"
#include "federation/controller/builder.h"
#include "federation/controller/member_informers.h"
#include "status/type_resources.h"

namespace kf::status {
namespace {

constexpr int kWriteAttempts = 3;

}  // namespace

struct WorkloadStatusController::Parts {
  Parts(TypeResources type_in, WorkloadKind kind_in, StatusControllerDeps deps_in)
      : type(std::move(type_in)), kind(kind_in), deps(std::move(deps_in)) {}
  ~Parts() { stop(); }
  Parts(const Parts&) = delete;
  Parts& operator=(const Parts&) = delete;

  const std::string& federatedKind() const { return type.ftc.spec.federated_type.kind; }

  ReconcileResult reconcile(const std::string& key) {
    if (!federated->hasSynced() || !members->synced()) return ReconcileStatus::kNotSynced;
    const ObjectPtr federated_object = federated->store().get(key);
    if (!federated_object || hasDeletionTimestamp(*federated_object)) {
      return ReconcileStatus::kOk;
    }
    std::vector<std::pair<std::string, ObjectPtr>> member_objects;
    for (const ClusterSnapshot& cluster : deps.clusters.clusters()) {
      if (!cluster.ready) continue;
      Result<ObjectPtr> cached = members->cached(cluster.name, key);
      if (!cached) {
        ApiError error = cached.error();
        error.message = "reading " + type.ftc.spec.target_type.kind + " \"" + key +
                        "\" of cluster \"" + cluster.name + "\": " + error.message;
        return error;
      }
      member_objects.emplace_back(cluster.name, std::move(cached).value());
    }
    const WorkloadStatus desired =
        summarizeWorkload(kind, clusterWorkloads(kind, *federated_object, member_objects));
    return write(*federated_object, desired);
  }

  // A status PUT of the merged status; on Conflict the object is read again and merged again.
  ReconcileResult write(Json object, const WorkloadStatus& desired) {
    if (schema_lacks_workload) return ReconcileStatus::kOk;
    ResourceClient objects(*deps.host, type.federated, objectNamespace(object));
    ApiError last = makeError(Reason::kConflict, "no attempt made");
    for (int attempt = 0; attempt < kWriteAttempts; ++attempt) {
      std::optional<Json> merged =
          mergeWorkloadStatus(object, desired, meta::formatTime(deps.clock.wallNow()));
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

  void noticePrunedWorkload(const Json& written) {
    if (nestedField(written, {"status", "workload"}) != nullptr) return;
    if (schema_lacks_workload.exchange(true)) return;
    spdlog::warn(
        "The CRD of {} does not declare status.workload, so the API server drops the workload "
        "status; generate the CRD again with this project's `kubefedctl enable` to get it. No "
        "more workload status is written for this type until the controller restarts.",
        federatedKind());
  }

  void stop() {
    if (stopped.exchange(true)) return;
    if (controller) controller->stop();
    if (members) members->stop();
    federated.release();
  }

  const TypeResources type;
  const WorkloadKind kind;
  StatusControllerDeps deps;
  InformerLease federated;
  std::unique_ptr<MemberInformers> members;
  ControllerPtr controller;
  std::atomic<bool> schema_lacks_workload{false};
  std::atomic<bool> stopped{false};
};

WorkloadStatusController::WorkloadStatusController(std::unique_ptr<Parts> parts)
    : parts_(std::move(parts)) {}

WorkloadStatusController::~WorkloadStatusController() { stop(); }

void WorkloadStatusController::stop() {
  if (parts_) parts_->stop();
}

Result<std::unique_ptr<WorkloadStatusController>> WorkloadStatusController::start(
    const core::FederatedTypeConfig& ftc, WorkloadKind kind, StatusControllerDeps deps) {
  auto parts = std::make_unique<Parts>(typeResourcesOf(ftc, deps.config), kind, std::move(deps));
  Parts& p = *parts;
  KF_TRY(federated, p.deps.host_informers.acquire(p.type.federated_key));
  p.federated = std::move(federated);
  p.controller = ControllerBuilder(lowerAscii(p.federatedKind()) + "-workload", p.deps.clock)
                     .watches(p.federated.informer())
                     .concurrency(p.deps.config.status_max_concurrent_reconciles)
                     .delays(p.deps.retry_delay, p.deps.config.cluster_available_delay)
                     .reconcileMetric("workloadstatuscontroller")
                     .complete(std::make_unique<ReconcilerFunc>(
                         [&p](const std::string& key) { return p.reconcile(key); }));
  p.members = std::make_unique<MemberInformers>(
      MemberInformersOptions{.target = p.type.target, .target_namespace = p.type.member_namespace},
      p.deps.member_informers, p.deps.clusters, p.deps.clock,
      [&p](const std::string& key) { p.controller->enqueueAfter(key, p.deps.workload_delay); });
  p.members->start();
  KF_TRYV(p.controller->start());
  spdlog::info("Starting workload status controller for \"{}\" ({} status)", p.federatedKind(),
               core::workloadKindName(kind));
  return std::unique_ptr<WorkloadStatusController>(new WorkloadStatusController(std::move(parts)));
}

}  // namespace kf::status
