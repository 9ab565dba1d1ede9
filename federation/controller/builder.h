#pragma once
// Wires a Controller in a few lines, as controller-runtime's builder does:
//
//   controller_ = ControllerBuilder("federatedtypeconfig", clock)
//                     .watches(ftc_informer, inNamespace(ns))
//                     .reconcileMetric("federatedtypeconfigcontroller")
//                     .complete(std::make_unique<FtcReconciler>(...));
//
// If wiring a controller takes more than a screen, the wiring is doing logic.

#include <memory>
#include <string>
#include <vector>

#include "federation/controller/controller.h"

namespace kf {

// Keys of objects in namespace `ns` only.
MapFunc inNamespace(std::string ns);

class ControllerBuilder {
 public:
  ControllerBuilder(std::string name, Clock& clock);

  // Queue the keys `map` names for each event of `informer` (see Controller::watch).
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
    SharedInformer* informer;
    MapFunc map;
    WatchOptions options;
  };

  ControllerOptions options_;
  Clock& clock_;
  std::vector<PendingWatch> watches_;
};

}  // namespace kf
