#pragma once
// The ReplicaSchedulingPreference controller (spec §2.7): the RspReconciler on the controller
// runtime, reading the scheduling plugins the scheduling manager starts and stops. Work queue
// "replicaschedulingpreference", reconciles observed as
// controller_runtime_reconcile_*{controller="schedulingpreferencecontroller"}.
//
// An RSP is reconciled when it changes, when the federated object of its name changes (at once),
// when a member workload of its name changes (after the retry delay; these two come from the
// plugins' sources), and every RSP once the cluster available / unavailable delay has passed
// after a cluster changed readiness.

#include <memory>

#include "controllers/scheduling/scheduling_plugins.h"
#include "federation/client/rest_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/control_plane_config.h"
#include "federation/controller/controller.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"

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
  // Where the plugins' member informer leases run; null: memberIoPool().
  TaskPool* member_io = nullptr;
};

// The controller, not started, over the RSPs of the target namespace and `plugins`, which must
// outlive it. Fails when the RSP informer cannot be started.
Result<ControllerPtr> rspController(const RspControllerDeps& deps,
                                    const SchedulingPlugins& plugins);

}  // namespace kf::scheduling
