#include "sync/controller/sync_steps.h"

namespace kf::sync {

namespace {

Operation operationFor(const ClusterStep& step, const std::shared_ptr<MemberObjectContext>& members,
                       const DeleteOptions& delete_options) {
  switch (*step.operation) {
    case OperationKind::kCreate:
      return [members](OperationReport& report) { createInCluster(members, report); };
    case OperationKind::kUpdate:
      return [members, object = step.object](OperationReport& report) {
        updateInCluster(members, *object, report);
      };
    case OperationKind::kDelete:
      return [members, delete_options](OperationReport& report) {
        deleteInCluster(members, delete_options, report);
      };
    case OperationKind::kRemoveManagedLabel:
      break;
  }
  return [members](OperationReport& report) { removeManagedLabelInCluster(members, report); };
}

}  // namespace

SyncObservation observeClusters(const SyncContext& context,
                                const std::vector<ClusterSnapshot>& clusters,
                                const MemberObjectContext& members) {
  SyncObservation observed;
  const std::string key = members.target.key();
  for (const ClusterSnapshot& cluster : clusters) {
    ClusterObservation seen{.name = cluster.name, .ready = cluster.ready};
    if (cluster.ready) {
      Result<ObjectPtr> cached = context.member_informers.cached(cluster.name, key);
      if (cached) {
        seen.object = cached.value();
        seen.host_namespace = seen.object && members.isHostNamespace(*seen.object);
      } else {
        seen.cache_error = cached.error().describe();
      }
    }
    observed.clusters.push_back(std::move(seen));
  }
  return observed;
}

int dispatchSteps(const std::vector<ClusterStep>& steps,
                  const std::shared_ptr<MemberObjectContext>& members,
                  const DeleteOptions& delete_options, Dispatcher& dispatcher) {
  int operations = 0;
  for (const ClusterStep& step : steps) {
    if (step.operation) {
      dispatcher.dispatch(step.cluster, *step.operation,
                          operationFor(step, members, delete_options));
      ++operations;
    } else if (step.status == PropagationStatus::kWaitingForRemoval && step.object) {
      dispatcher.recordStatus(step.cluster, *step.status, step.object->value("status", Json()));
    } else if (step.status) {
      dispatcher.recordStatus(step.cluster, *step.status);
    }
  }
  return operations;
}

}  // namespace kf::sync
