#include "controllers/federatedtypeconfig/ftc_plan.h"

namespace kf {
namespace {

using core::FederatedTypeConfig;
using core::FederatedTypeConfigStatus;

bool isNamespacesFtc(const std::string& name) { return name == core::kNamespacesFtcName; }

std::string controllerState(bool running) {
  return std::string(running ? core::kControllerRunning : core::kControllerNotRunning);
}

// The status after this pass; nullopt when the stored status says exactly that already.
std::optional<FederatedTypeConfigStatus> statusUpdate(const FederatedTypeConfig& ftc,
                                                      bool sync_running, bool status_running) {
  FederatedTypeConfigStatus desired = ftc.status.value_or(FederatedTypeConfigStatus{});
  desired.observed_generation = ftc.header.generation();
  desired.propagation_controller = controllerState(sync_running);
  desired.status_controller = controllerState(status_running);
  if (ftc.status && ftc.status->toJson() == desired.toJson()) return std::nullopt;
  return desired;
}

ControllerChange stopIf(bool running) {
  return running ? ControllerChange::kStop : ControllerChange::kNone;
}

// Gone from the cache without our deletion pass (someone removed the finalizer): nothing can
// be written any more, but controllers left running would sync a type nobody configures.
FtcPlan planForMissing(const FtcObservation& observed) {
  FtcPlan plan;
  plan.sync = stopIf(observed.sync_running);
  plan.status = stopIf(observed.status_running);
  plan.enqueue_namespaced_ftcs = isNamespacesFtc(observed.name);
  return plan;
}

FtcPlan planForDeletion(const FtcObservation& observed) {
  FtcPlan plan = planForMissing(observed);
  if (observed.has_finalizer) plan.finalizer = FinalizerChange::kRemove;
  return plan;
}

// A control plane scoped to one namespace cannot propagate cluster-scoped objects (§2.3 step 3).
bool skippedForScope(const FederatedTypeConfig& ftc, const FtcDecisionOptions& options) {
  return options.scoped_control_plane && ftc.spec.propagation == core::kEnabled &&
         !ftc.spec.target_type.namespaced();
}

FtcPlan planForScopeSkip(const FtcObservation& observed) {
  FtcPlan plan;
  plan.skipped_for_scope = true;
  plan.sync = stopIf(observed.sync_running);
  plan.status = stopIf(observed.status_running);
  plan.status_update = statusUpdate(*observed.ftc, false, false);
  return plan;
}

struct SyncDecision {
  ControllerChange change = ControllerChange::kNone;
  std::string blocked_by;  // why a needed start cannot happen
};

SyncDecision decideSync(const FtcObservation& observed) {
  const FederatedTypeConfig& ftc = *observed.ftc;
  const bool enabled = ftc.spec.propagation == core::kEnabled;
  const bool waits_for_namespaces =
      ftc.spec.target_type.namespaced() && !observed.namespaces_ftc_available;
  if (!observed.sync_running) {
    if (!enabled) return {};
    if (waits_for_namespaces) return {ControllerChange::kNone, missingNamespacesFtcError(ftc)};
    return {ControllerChange::kStart, ""};
  }
  if (!enabled || waits_for_namespaces) return {ControllerChange::kStop, ""};
  // The running controller was built from an older spec (e.g. another target version).
  if (observed.sync_generation != ftc.header.generation()) {
    return {ControllerChange::kRestart, ""};
  }
  return {};
}

ControllerChange decideStatus(const FtcObservation& observed, const FtcDecisionOptions& options) {
  const bool enabled =
      statusControllerEnabled(*observed.ftc, options.raw_resource_status_collection);
  if (!observed.status_running && enabled) return ControllerChange::kStart;
  if (observed.status_running && !enabled) return ControllerChange::kStop;
  return ControllerChange::kNone;
}

bool runsAfter(bool running_now, ControllerChange change) {
  if (change == ControllerChange::kStop) return false;
  return running_now || change != ControllerChange::kNone;
}

FtcPlan planForLiveFtc(const FtcObservation& observed, const FtcDecisionOptions& options) {
  FtcPlan plan;
  if (!observed.has_finalizer) {
    plan.finalizer = FinalizerChange::kAdd;
    // FTCs of namespaced types may have been waiting for this one to appear.
    plan.enqueue_namespaced_ftcs = isNamespacesFtc(observed.name);
  }
  const SyncDecision sync = decideSync(observed);
  if (!sync.blocked_by.empty()) {
    plan.retry_error = sync.blocked_by;
    return plan;
  }
  plan.sync = sync.change;
  plan.status = decideStatus(observed, options);
  plan.status_update = statusUpdate(*observed.ftc, runsAfter(observed.sync_running, plan.sync),
                                    runsAfter(observed.status_running, plan.status));
  return plan;
}

}  // namespace

bool FtcPlan::operator==(const FtcPlan& other) const {
  const auto status_json = [](const FtcPlan& plan) {
    return plan.status_update ? plan.status_update->toJson() : Json();
  };
  return sync == other.sync && status == other.status && finalizer == other.finalizer &&
         enqueue_namespaced_ftcs == other.enqueue_namespaced_ftcs &&
         status_json(*this) == status_json(other) && retry_error == other.retry_error &&
         skipped_for_scope == other.skipped_for_scope;
}

bool statusControllerEnabled(const core::FederatedTypeConfig& ftc, bool raw_status_collection) {
  return !raw_status_collection && ftc.name() == "services" &&
         ftc.spec.status_collection == core::kEnabled && ftc.spec.status_type.has_value();
}

std::string missingNamespacesFtcError(const core::FederatedTypeConfig& ftc) {
  return "Unable to start sync controller for \"" + ftc.spec.federated_type.kind +
         "\" due to missing FederatedTypeConfig for namespaces";
}

FtcPlan planFtcReconcile(const FtcObservation& observed, const FtcDecisionOptions& options) {
  if (!observed.ftc) return planForMissing(observed);
  if (observed.being_deleted) return planForDeletion(observed);
  if (skippedForScope(*observed.ftc, options)) return planForScopeSkip(observed);
  return planForLiveFtc(observed, options);
}

}  // namespace kf
