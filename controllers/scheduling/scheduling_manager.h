#pragma once
// The scheduling manager (spec §2.7), run when the SchedulerPreferences gate is on: watches the
// FederatedTypeConfigs of the KubeFed namespace and, for the schedulable ones
// (`deployments.apps`, `replicasets.apps` -> ReplicaSchedulingPreference), keeps a scheduling
// plugin running while the FTC's propagation is enabled. The RSP controller runs while at least
// one plugin does; the last plugin's stop stops and joins it. A plugin needs the `namespaces`
// FTC (its federated type is where intersectWithClusterSelector looks): without it the FTC is
// retried with backoff.
//
// Its logic is the SchedulingManagerReconciler; this is its wiring on the controller runtime:
// one worker, queue "schedulingmanager", reconciles observed as
// controller_runtime_reconcile_*{controller="schedulingmanagercontroller"}. The FTC informer is
// leased with the FederatedTypeConfig controller's key: one informer for both.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "controllers/scheduling/rsp_controller.h"
#include "controllers/scheduling/scheduling_plugins.h"
#include "federation/controller/controller.h"
#include "federation/controller/reconciler.h"
#include "federation/informer/store.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::scheduling {

inline constexpr char kSchedulingManagerWorkerName[] = "schedulingmanager";
inline constexpr char kSchedulingManagerMetricName[] = "schedulingmanagercontroller";

// The FTC names scheduled by ReplicaSchedulingPreferences.
bool isSchedulingFtc(std::string_view ftc_name);

// Starts the RSP controller when the first plugin starts and stops it after the last one.
class SchedulingManagerReconciler final : public Reconciler {
 public:
  // `ftcs`: the FTCs of `kubefed_namespace`; `rsp_deps` builds the RSP controller. Every
  // reference must outlive the reconciler.
  SchedulingManagerReconciler(const Store& ftcs, std::string kubefed_namespace,
                              RspControllerDeps rsp_deps);
  // stopAll().
  ~SchedulingManagerReconciler() override;

  ReconcileResult reconcile(const std::string& key) override KF_EXCLUDES(mu_);

  // Stops and joins the RSP controller and its plugins. Only once no reconcile runs.
  void stopAll() KF_EXCLUDES(mu_);
  // FTC names whose plugin runs, sorted; empty while the RSP controller is stopped.
  std::vector<std::string> plugins() const KF_EXCLUDES(mu_);
  bool rspControllerRunning() const KF_EXCLUDES(mu_);

 private:
  void stopPlugin(const std::string& ftc_name) KF_EXCLUDES(mu_);
  Status startPlugin(const core::FederatedTypeConfig& ftc,
                     const core::ApiResource& federated_namespace) KF_EXCLUDES(mu_);

  const Store& ftcs_;
  const std::string namespace_;
  const RspControllerDeps rsp_deps_;
  SchedulingPlugins plugins_;  // before rsp_: its sources queue into it, its reconciles read them
  mutable Mutex mu_;
  ControllerPtr rsp_ KF_GUARDED_BY(mu_);  // runs while a plugin does
};

class SchedulingManager final : public Runnable {
 public:
  // Every reference in `rsp_deps` must outlive the manager.
  explicit SchedulingManager(RspControllerDeps rsp_deps);
  // stop().
  ~SchedulingManager() override;

  // Leases the FTC informer and starts reconciling. Once only.
  Status start() override;
  // Stops watching, waits for the reconcile in progress, then stops and joins the RSP controller
  // and its plugins. Idempotent.
  void stop() override;

  std::vector<std::string> plugins() const;
  bool rspControllerRunning() const;

 private:
  RspControllerDeps rsp_deps_;
  SchedulingManagerReconciler* reconciler_ = nullptr;  // owned by controller_ until it stops
  ControllerPtr controller_;
};

}  // namespace kf::scheduling
