#pragma once
// Wires a Controller in a few lines, as controller-runtime's builder does:
//
//   controller_ = ControllerBuilder("federatedtypeconfig", clock)
//                     .watches(ftc_informer, inNamespace(ns))
//                     .reconcileMetric("federatedtypeconfigcontroller")
//                     .complete(std::make_unique<FtcReconciler>(...));
//
// Each watches() names a source and the handler that maps its events to keys; the controller
// owns the sources and the order they start and stop in (controller.h). If wiring a controller
// takes more than a screen, the wiring is doing logic.

#include <memory>
#include <string>
#include <vector>

#include "federation/controller/controller.h"
#include "federation/informer/shared_informer.h"

namespace kf {

// How a watch of a borrowed informer maps its events: the handler's delay and update filter.
struct WatchOptions {
  Duration delay{0};  // how long after the event the keys are queued
  UpdateFilter update_filter = objectChanged;
};

class ControllerBuilder {
 public:
  ControllerBuilder(std::string name, Clock& clock);

  // Queue what `handler` names for each event of `source`, which the controller owns. A null
  // source is skipped: a watch this instance of the controller does not need.
  ControllerBuilder& watches(SourcePtr source, Handler handler);
  // Queue the keys `map` names for each event of `informer`, which someone else starts and which
  // must outlive the controller.
  ControllerBuilder& watches(SharedInformer& informer, MapFunc map = keyOfObject,
                             WatchOptions options = {});
  ControllerBuilder& concurrency(int workers);
  // Delays after kNeedsRecheck and kNotSynced.
  ControllerBuilder& delays(Duration retry, Duration cluster_sync);
  // Per-key backoff after failures.
  ControllerBuilder& backoff(Duration initial, Duration max);
  // Observe each reconcile as controller_runtime_reconcile_*{controller=`label`}.
  ControllerBuilder& reconcileMetric(std::string label);

  // The controller, not started.
  ControllerPtr complete(ReconcilerPtr reconciler);

 private:
  struct PendingWatch {
    SourcePtr source;
    Handler handler;
  };

  ControllerOptions options_;
  Clock& clock_;
  std::vector<PendingWatch> watches_;
};

}  // namespace kf
