#pragma once
// One pass of the FederatedTypeConfig reconciler for one key: observe (the FTC from the informer
// cache, the `namespaces` FTC, which controllers run for it), decide (planFtcReconcile), act
// (stop, finalizer, enqueue, start, then one status write). Called by one worker thread at a
// time (the FTC controller runs a single worker); the objects it is given must outlive it.
//
// Differences from KubeFed v0.8.1, all for the better and invisible in the steady state:
//  - an FTC being deleted releases its finalizer also on a scoped control plane (KubeFed checks
//    the scope first and left the finalizer stuck);
//  - an FTC that vanished from the cache stops any controller still running for it;
//  - a `namespaces` FTC being deleted counts as missing, so namespaced types stop at once;
//  - a running sync controller is restarted when the FTC's generation differs from the one it
//    was started with (KubeFed compares status.observedGeneration, so a failed status write
//    also restarted it), and an unchanged status is not written again.

#include <functional>
#include <string>

#include "controllers/federatedtypeconfig/ftc_plan.h"
#include "controllers/federatedtypeconfig/ftc_writer.h"
#include "controllers/federatedtypeconfig/running_controllers.h"
#include "controllers/federatedtypeconfig/type_controllers.h"
#include "federation/controller/reconciler.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/store.h"

namespace kf {

struct FtcReconcilerOptions {
  std::string kubefed_namespace;
  FtcDecisionOptions decision;
};

struct FtcReconcilerDeps {
  const Store& cache;  // FTCs of the KubeFed namespace
  FtcWriter& writer;
  TypeControllerFactory& factory;
  EventRecorder& events;
  RunningControllers& running;
  std::function<void(const std::string& key)> enqueue;  // queues another FTC key
};

class FtcReconciler final : public Reconciler {
 public:
  FtcReconciler(FtcReconcilerOptions options, FtcReconcilerDeps deps);

  // `key` is "namespace/name"; keys of other namespaces are ignored.
  ReconcileResult reconcile(const std::string& key) override;

 private:
  // What the pass is about: the FTC as last read or written, for writes and events.
  struct Subject {
    std::string name;
    std::string label;  // the federated kind when known, else the FTC name
    Json latest;        // null when the FTC is not cached
  };

  Result<FtcObservation> observe(const std::string& name, const ObjectPtr& cached) const;
  bool namespacesFtcAvailable() const;
  ReconcileResult carryOut(const FtcPlan& plan, const FtcObservation& observed, Subject& subject);

  void stopController(TypeControllerKind kind, const Subject& subject);
  // Starts or restarts the controller if the plan says so.
  Status applyStartOrRestart(ControllerChange change, TypeControllerKind kind,
                             const FtcObservation& observed, const Subject& subject);
  Status updateFinalizer(FinalizerChange change, Subject& subject);
  Status writeStatus(const core::FederatedTypeConfigStatus& status, Subject& subject);
  void enqueueNamespacedFtcs(const std::string& except_name);

  void event(const Subject& subject, EventType type, const std::string& reason,
             const std::string& message);

  const FtcReconcilerOptions options_;
  FtcReconcilerDeps deps_;
};

}  // namespace kf
