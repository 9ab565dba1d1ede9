#pragma once
// The FederatedTypeConfig controller (spec §2.3): watches the FTCs of the KubeFed namespace and
// keeps, for each, the type's sync controller (and for `services` the legacy status controller)
// running or stopped as the FTC says, reporting that in the FTC's status. One worker thread,
// named "federatedtypeconfig" in the workqueue metrics; each reconcile is observed as
// controller_runtime_reconcile_*{controller="federatedtypeconfigcontroller"}.

#include <memory>
#include <string>
#include <vector>

#include "controllers/federatedtypeconfig/ftc_reconciler.h"
#include "controllers/federatedtypeconfig/ftc_writer.h"
#include "controllers/federatedtypeconfig/running_controllers.h"
#include "controllers/federatedtypeconfig/type_controllers.h"
#include "federation/client/rest_client.h"
#include "federation/controller/reconcile_worker.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/shared_informer.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

inline constexpr char kFtcWorkerName[] = "federatedtypeconfig";
inline constexpr char kFtcControllerMetricName[] = "federatedtypeconfigcontroller";

struct FtcControllerOptions {
  std::string kubefed_namespace;
  // KubeFedConfig scope Namespaced: cluster-scoped types are never propagated.
  bool scoped_control_plane = false;
  // The RawResourceStatusCollection feature gate.
  bool raw_resource_status_collection = false;
};

// Everything must outlive the controller.
struct FtcControllerDeps {
  RestClient& host;
  TypeControllerFactory& factory;
  EventRecorder& events;
  Clock& clock;
  // FTCs of the KubeFed namespace (e.g. an InformerManager lease's informer). start() starts it
  // if nobody has.
  SharedInformer& ftc_informer;
};

class FtcController {
 public:
  FtcController(FtcControllerOptions options, FtcControllerDeps deps);
  // stop().
  ~FtcController();
  FtcController(const FtcController&) = delete;
  FtcController& operator=(const FtcController&) = delete;

  // Watches FTCs and starts reconciling. Once only; nothing after stop().
  void start() KF_EXCLUDES(mu_);
  // Stops watching, waits for the reconcile in progress, then stops and joins every sync and
  // status controller it started. Idempotent; must not be called from a reconcile.
  void stop() KF_EXCLUDES(mu_);

  // FTC names whose sync (status) controller runs now, sorted.
  std::vector<std::string> runningSyncControllers() const;
  std::vector<std::string> runningStatusControllers() const;

 private:
  ReconcileResult reconcileAndMeasure(const std::string& key);

  const FtcControllerOptions options_;
  Clock& clock_;
  SharedInformer& informer_;
  RunningControllers running_;
  HostFtcWriter writer_;
  FtcReconciler reconciler_;

  Mutex mu_;
  std::optional<HandlerId> handler_ KF_GUARDED_BY(mu_);
  bool started_ KF_GUARDED_BY(mu_) = false;
  bool stopped_ KF_GUARDED_BY(mu_) = false;

  // Last: its threads call into everything above and are joined first.
  ReconcileWorker worker_;
};

}  // namespace kf
