#pragma once
// The ReplicaSchedulingPreference controller (spec §2.7): the RspReconciler on the controller
// runtime, with the scheduling plugins the scheduling manager starts and stops. Work queue
// "replicaschedulingpreference", reconciles observed as
// controller_runtime_reconcile_*{controller="schedulingpreferencecontroller"}.
//
// An RSP is reconciled when it changes, when the federated object of its name changes (at once),
// when a member workload of its name changes (after the retry delay), and every RSP once the
// cluster available / unavailable delay has passed after a cluster changed readiness.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "apis/core/federated_type_config.h"
#include "controllers/scheduling/scheduling_plugin.h"
#include "federation/client/rest_client.h"
#include "federation/cluster/availability_trigger.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/control_plane_config.h"
#include "federation/controller/controller.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::scheduling {

inline constexpr char kRspWorkerName[] = "replicaschedulingpreference";
inline constexpr char kRspControllerMetricName[] = "schedulingpreferencecontroller";

// Every reference must outlive the controller.
struct RspControllerDeps {
  ControlPlaneConfig config;  // target namespace, cluster delays
  std::shared_ptr<RestClient> host;
  ClusterRegistry& clusters;
  InformerManager& host_informers;
  InformerManager& member_informers;
  EventRecorder& events;
  Clock& clock;
  // After NeedsRecheck, and before a member workload's change is reconciled (KubeFed's 10 s).
  Duration retry_delay = std::chrono::seconds(10);
};

class RspController {
 public:
  // Leases the RSP informer and starts the workers. Fails when the informer cannot be started.
  static Result<std::unique_ptr<RspController>> start(RspControllerDeps deps);
  // stop().
  ~RspController();
  RspController(const RspController&) = delete;
  RspController& operator=(const RspController&) = delete;

  // Starts the plugin for `ftc` (its target and federated types), replacing a plugin of the same
  // FTC started with other types. `federated_namespace` is the `namespaces` FTC's federated type.
  Status startPlugin(const core::FederatedTypeConfig& ftc,
                     const core::ApiResource& federated_namespace) KF_EXCLUDES(mu_);
  // Stops and joins the FTC's plugin, if one runs.
  void stopPlugin(const std::string& ftc_name) KF_EXCLUDES(mu_);
  // FTC names whose plugin runs, sorted.
  std::vector<std::string> plugins() const KF_EXCLUDES(mu_);

  // Stops the workers, then every plugin, and releases the informer. Idempotent.
  void stop() KF_EXCLUDES(mu_);

 private:
  explicit RspController(RspControllerDeps deps);
  ScheduledTypePtr pluginFor(const std::string& federated_kind) const KF_EXCLUDES(mu_);
  void enqueueAll();

  RspControllerDeps deps_;
  InformerLease rsps_;
  mutable Mutex mu_;
  std::map<std::string, std::shared_ptr<SchedulingPlugin>> plugins_ KF_GUARDED_BY(mu_);
  bool stopped_ KF_GUARDED_BY(mu_) = false;
  std::unique_ptr<ClusterAvailabilityTrigger> availability_;
  ControllerPtr controller_;  // last: its workers use everything above and are joined first
};

}  // namespace kf::scheduling
