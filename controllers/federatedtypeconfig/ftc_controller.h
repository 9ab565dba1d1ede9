#pragma once
// The FederatedTypeConfig controller (spec §2.3): watches the FTCs of the KubeFed namespace and
// keeps, for each, the type's sync controller (and for `services` the legacy status controller)
// running or stopped as the FTC says, reporting that in the FTC's status. Its logic is the
// FtcReconciler; this is its wiring on the controller runtime: one worker, queue
// "federatedtypeconfig", reconciles observed as
// controller_runtime_reconcile_*{controller="federatedtypeconfigcontroller"}.

#include <string>
#include <vector>

#include "controllers/federatedtypeconfig/ftc_reconciler.h"
#include "controllers/federatedtypeconfig/ftc_writer.h"
#include "controllers/federatedtypeconfig/running_controllers.h"
#include "controllers/federatedtypeconfig/type_controllers.h"
#include "federation/client/rest_client.h"
#include "federation/controller/controller.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/shared_informer.h"
#include "federation/runtime/clock.h"

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

class FtcController final : public Runnable {
 public:
  FtcController(FtcControllerOptions options, FtcControllerDeps deps);
  // stop().
  ~FtcController() override;

  // Watches FTCs and starts reconciling. Once only; nothing after stop().
  Status start() override;
  // Stops watching, waits for the reconcile in progress, then stops and joins every sync and
  // status controller it started. Idempotent; must not be called from a reconcile.
  void stop() override;

  // FTC names whose sync (status) controller runs now, sorted.
  std::vector<std::string> runningSyncControllers() const;
  std::vector<std::string> runningStatusControllers() const;

 private:
  const std::string namespace_;
  SharedInformer& informer_;
  RunningControllers running_;
  HostFtcWriter writer_;
  ControllerPtr controller_;  // last: its workers use everything above and are joined first
};

}  // namespace kf
