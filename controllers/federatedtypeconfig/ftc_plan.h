#pragma once
// The FederatedTypeConfig reconciler's decision (spec §2.3), as a pure function: what it saw of
// one FTC in, the plan out. No I/O happens here, so every rule is tested as a table; the
// reconciler (ftc_reconciler.h) observes and then carries the plan out.

#include <cstdint>
#include <optional>
#include <string>

#include "apis/core/federated_type_config.h"

namespace kf {

// The finalizer the FTC controller keeps on every FTC it has seen, so it can stop the type's
// controllers before the FTC is gone.
inline constexpr char kFtcFinalizer[] = "core.kubefed.io/federated-type-config";

struct FtcDecisionOptions {
  // The KubeFed control plane is scoped to its own namespace (KubeFedConfig scope Namespaced).
  bool scoped_control_plane = false;
  // Feature gate RawResourceStatusCollection; when on, the legacy status controller never runs.
  bool raw_resource_status_collection = false;
};

struct FtcObservation {
  std::string name;  // of the FTC the key names
  // From the informer cache, with core::setFederatedTypeConfigDefaults applied; nullopt when
  // the FTC is no longer cached.
  std::optional<core::FederatedTypeConfig> ftc;
  bool being_deleted = false;  // metadata.deletionTimestamp is set
  bool has_finalizer = false;  // kFtcFinalizer is present
  // The `namespaces` FTC is cached and not being deleted: sync controllers of namespaced types
  // need its federated type for placement.
  bool namespaces_ftc_available = false;
  bool sync_running = false;  // a sync controller runs for this FTC now
  // metadata.generation of the FTC the running sync controller was started with.
  std::int64_t sync_generation = 0;
  bool status_running = false;  // a status controller runs for this FTC now
};

enum class ControllerChange {
  kNone,
  kStart,
  kStop,
  kRestart,  // stop, then start with the current FTC (its generation changed)
};

enum class FinalizerChange { kNone, kAdd, kRemove };

struct FtcPlan {
  ControllerChange sync = ControllerChange::kNone;
  ControllerChange status = ControllerChange::kNone;
  FinalizerChange finalizer = FinalizerChange::kNone;
  // Reconcile every FTC with a namespaced target: the `namespaces` FTC they wait for (or run
  // with) appeared or is going away.
  bool enqueue_namespaced_ftcs = false;
  // The status to write (a full status update); nullopt when the stored one is already right.
  std::optional<core::FederatedTypeConfigStatus> status_update;
  // Non-empty: carry out the steps above, then report this error and retry with backoff
  // (status_update is then always nullopt).
  std::string retry_error;
  // Scoped control plane and cluster-scoped target: nothing is started, on purpose.
  bool skipped_for_scope = false;

  bool operator==(const FtcPlan& other) const;
};

// The legacy status controller (FederatedServiceStatus) runs only for `services` with
// statusCollection Enabled and a statusType, and only while raw status collection is off.
bool statusControllerEnabled(const core::FederatedTypeConfig& ftc, bool raw_status_collection);

// Why a namespaced type's sync controller cannot start yet; KubeFed's exact wording.
std::string missingNamespacesFtcError(const core::FederatedTypeConfig& ftc);

FtcPlan planFtcReconcile(const FtcObservation& observed, const FtcDecisionOptions& options);

}  // namespace kf
