#include "controllers/federatedtypeconfig/ftc_reconciler.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "apis/meta/qualified_name.h"
#include "federation/controller/finalizers.h"

namespace kf {
namespace {

constexpr char kReasonStarted[] = "ControllerStarted";
constexpr char kReasonStopped[] = "ControllerStopped";
constexpr char kReasonStartFailed[] = "ControllerStartFailed";
constexpr char kReasonFinalizerFailed[] = "FinalizerUpdateFailed";
constexpr char kReasonStatusFailed[] = "StatusUpdateFailed";
constexpr char kReasonInvalid[] = "InvalidFederatedTypeConfig";

bool targetsNamespacedType(const Json& ftc) {
  const Json::json_pointer scope("/spec/targetType/scope");
  if (!ftc.contains(scope) || !ftc.at(scope).is_string()) return false;
  return ftc.at(scope).get<std::string>() == core::kScopeNamespaced;
}

std::string inQuotes(const std::string& text) { return "\"" + text + "\""; }

}  // namespace

FtcReconciler::FtcReconciler(FtcReconcilerOptions options, FtcReconcilerDeps deps)
    : options_(std::move(options)), deps_(std::move(deps)) {}

ReconcileResult FtcReconciler::reconcile(const std::string& key) {
  const auto [ns, name] = QualifiedName::fromKey(key);
  if (ns != options_.kubefed_namespace) return ReconcileStatus::kOk;
  const ObjectPtr cached = deps_.cache.get(key);
  Subject subject{name, name, cached ? *cached : Json()};
  auto observed = observe(name, cached);
  if (!observed) {
    // Retrying cannot fix a malformed object; its next change is queued by the informer.
    spdlog::error("Reading FederatedTypeConfig failed ftc={} error={}", key,
                  observed.error().describe());
    event(subject, EventType::kWarning, kReasonInvalid, observed.error().message);
    return ReconcileStatus::kOk;
  }
  if (observed.value().ftc) subject.label = observed.value().ftc->spec.federated_type.kind;
  const FtcPlan plan = planFtcReconcile(observed.value(), options_.decision);
  return carryOut(plan, observed.value(), subject);
}

Result<FtcObservation> FtcReconciler::observe(const std::string& name,
                                              const ObjectPtr& cached) const {
  FtcObservation observed;
  observed.name = name;
  const auto sync_generation = deps_.running.startedGeneration(name, TypeControllerKind::kSync);
  observed.sync_running = sync_generation.has_value();
  observed.sync_generation = sync_generation.value_or(0);
  observed.status_running = deps_.running.isRunning(name, TypeControllerKind::kStatus);
  observed.namespaces_ftc_available = namespacesFtcAvailable();
  if (!cached) return observed;
  KF_TRY(ftc, core::FederatedTypeConfig::fromJson(*cached));
  core::setFederatedTypeConfigDefaults(ftc);
  observed.ftc = std::move(ftc);
  observed.being_deleted = hasDeletionTimestamp(*cached);
  observed.has_finalizer = hasFinalizer(*cached, kFtcFinalizer);
  return observed;
}

bool FtcReconciler::namespacesFtcAvailable() const {
  const ObjectPtr namespaces =
      deps_.cache.get(options_.kubefed_namespace + "/" + std::string(core::kNamespacesFtcName));
  return namespaces && !hasDeletionTimestamp(*namespaces);
}

ReconcileResult FtcReconciler::carryOut(const FtcPlan& plan, const FtcObservation& observed,
                                        Subject& subject) {
  if (plan.skipped_for_scope) {
    spdlog::info(
        "Skipping start of sync & status controller for cluster-scoped resource {}. It is not "
        "required for a namespaced KubeFed control plane.",
        inQuotes(subject.label));
  }
  if (plan.sync == ControllerChange::kStop) stopController(TypeControllerKind::kSync, subject);
  if (plan.status == ControllerChange::kStop) stopController(TypeControllerKind::kStatus, subject);
  if (plan.finalizer != FinalizerChange::kNone) {
    KF_TRYV(updateFinalizer(plan.finalizer, subject));
  }
  if (plan.enqueue_namespaced_ftcs) enqueueNamespacedFtcs(subject.name);
  KF_TRYV(applyStartOrRestart(plan.sync, TypeControllerKind::kSync, observed, subject));
  const Status status_started =
      applyStartOrRestart(plan.status, TypeControllerKind::kStatus, observed, subject);
  if (!plan.retry_error.empty()) {
    event(subject, EventType::kWarning, kReasonStartFailed, plan.retry_error);
    return makeError(Reason::kNotFound, plan.retry_error);
  }
  if (plan.status_update) {
    core::FederatedTypeConfigStatus status = *plan.status_update;
    // A status controller that did not start must not hide what does run (the sync controller,
    // which `kubefedctl disable` waits on): the status says so, and the start is retried.
    if (!status_started) status.status_controller = std::string(core::kControllerNotRunning);
    KF_TRYV(writeStatus(status, subject));
  }
  if (!status_started) return status_started.error();
  return ReconcileStatus::kOk;
}

void FtcReconciler::stopController(TypeControllerKind kind, const Subject& subject) {
  const std::string kind_name = typeControllerKindName(kind);
  spdlog::info("Stopping {} controller ftc={}", kind_name, subject.name);
  if (!deps_.running.stop(subject.name, kind)) return;
  event(subject, EventType::kNormal, kReasonStopped,
        "Stopped " + kind_name + " controller for " + inQuotes(subject.label));
}

Status FtcReconciler::applyStartOrRestart(ControllerChange change, TypeControllerKind kind,
                                          const FtcObservation& observed, const Subject& subject) {
  if (change != ControllerChange::kStart && change != ControllerChange::kRestart) {
    return boost::outcome_v2::success();
  }
  const std::string kind_name = typeControllerKindName(kind);
  if (change == ControllerChange::kRestart) {
    spdlog::info("Refreshing {} controller ftc={}", kind_name, subject.name);
    stopController(kind, subject);
  }
  spdlog::info("Starting {} controller ftc={}", kind_name, subject.name);
  auto built = kind == TypeControllerKind::kSync ? deps_.factory.syncController(*observed.ftc)
                                                 : deps_.factory.statusController(*observed.ftc);
  const Status started = built ? built.value()->start() : Status(built.error());
  if (!started) {
    const std::string message = "Failed to start " + kind_name + " controller for " +
                                inQuotes(subject.label) + ": " + started.error().message;
    event(subject, EventType::kWarning, kReasonStartFailed, message);
    return makeError(started.error().reason, message);
  }
  deps_.running.add(subject.name, kind, std::move(built).value(),
                    observed.ftc->header.generation());
  event(subject, EventType::kNormal, kReasonStarted,
        "Started " + kind_name + " controller for " + inQuotes(subject.label));
  return boost::outcome_v2::success();
}

Status FtcReconciler::updateFinalizer(FinalizerChange change, Subject& subject) {
  const FinalizerUpdate update = change == FinalizerChange::kAdd
                                     ? addFinalizers(subject.latest, {kFtcFinalizer})
                                     : removeFinalizers(subject.latest, {kFtcFinalizer});
  if (!update.changed) return boost::outcome_v2::success();
  const char* verb = change == FinalizerChange::kAdd ? "Adding" : "Removing";
  spdlog::info("{} finalizer ftc={} finalizer={}", verb, subject.name, kFtcFinalizer);
  auto patched = deps_.writer.patchFinalizers(subject.name, update.finalizers);
  if (!patched) {
    ApiError error = patched.error();
    // A conflict only means the cache was behind; the retry reads the newer object.
    if (!isConflict(error)) {
      event(subject, EventType::kWarning, kReasonFinalizerFailed,
            std::string(verb) + " finalizer " + kFtcFinalizer + " failed: " + error.message);
    }
    error.message = std::string(verb) + " finalizer: " + error.message;
    return error;
  }
  subject.latest = std::move(patched).value();
  return boost::outcome_v2::success();
}

Status FtcReconciler::writeStatus(const core::FederatedTypeConfigStatus& status, Subject& subject) {
  Json object = subject.latest;
  object["status"] = status.toJson();
  spdlog::info("Updating status ftc={} propagation={} status={}", subject.name,
               status.propagation_controller, status.status_controller.value_or(""));
  auto written = deps_.writer.updateStatus(object);
  if (!written) {
    ApiError error = written.error();
    if (!isConflict(error)) {
      event(subject, EventType::kWarning, kReasonStatusFailed,
            "Updating status failed: " + error.message);
    }
    error.message = "updating status: " + error.message;
    return error;
  }
  subject.latest = std::move(written).value();
  return boost::outcome_v2::success();
}

void FtcReconciler::enqueueNamespacedFtcs(const std::string& except_name) {
  for (const ObjectPtr& ftc : deps_.cache.list()) {
    if (objectNamespace(*ftc) != options_.kubefed_namespace) continue;
    if (objectName(*ftc) == except_name || !targetsNamespacedType(*ftc)) continue;
    deps_.enqueue(objectKey(*ftc));
  }
}

void FtcReconciler::event(const Subject& subject, EventType type, const std::string& reason,
                          const std::string& message) {
  ObjectReference reference;
  if (subject.latest.is_object()) {
    reference = referenceTo(subject.latest);
  } else {
    reference = ObjectReference{.api_version = kFederatedTypeConfigResource.apiVersion(),
                                .kind = "FederatedTypeConfig",
                                .namespace_name = options_.kubefed_namespace,
                                .name = subject.name};
  }
  deps_.events.event(reference, type, reason, message);
}

}  // namespace kf
