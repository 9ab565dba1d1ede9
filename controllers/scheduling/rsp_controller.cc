#include "controllers/scheduling/rsp_controller.h"

#include <utility>

#include "controllers/scheduling/rsp_reconciler.h"
#include "federation/controller/builder.h"
#include "federation/controller/cluster_availability_source.h"
#include "federation/controller/informer_source.h"

namespace kf::scheduling {

namespace {

const GroupVersionResource kReplicaSchedulingPreferences{"scheduling.kubefed.io", "v1alpha1",
                                                         "replicaschedulingpreferences", true};

}  // namespace

Result<ControllerPtr> rspController(const RspControllerDeps& deps,
                                    const SchedulingPlugins& plugins) {
  KF_TRY(rsps, InformerSource::lease(deps.host_informers,
                                     InformerKey{.cluster = "",
                                                 .resource = kReplicaSchedulingPreferences,
                                                 .namespace_name = deps.config.target_namespace}));
  const InformerSource& cached = *rsps;
  auto reconciler = std::make_unique<RspReconciler>(RspReconcilerDeps{
      cached.store(), deps.clusters, plugins.lookup(), *deps.host, deps.events, deps.clock});
  return ControllerBuilder(kRspWorkerName, deps.clock)
      .watches(std::move(rsps), enqueueObject())
      .watches(std::make_unique<ClusterAvailabilitySource>(deps.clusters, deps.clock, deps.config),
               enqueueAll([&cached] { return cached.keys(); }))
      .delays(deps.retry_delay, deps.config.cluster_available_delay)
      .reconcileMetric(kRspControllerMetricName)
      .complete(std::move(reconciler));
}

}  // namespace kf::scheduling
