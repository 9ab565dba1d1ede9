#pragma once
// Ordering within a member cluster (beyond KubeFed, only for workloads that reference objects
// following them, workload_references.h): a workload is not created in a cluster before the
// objects it references that follow it are propagated there. Its creation is deferred (the
// cluster's status is WaitingForDependencies and the pass is queued again shortly), for at most
// `max_wait` since the first deferral; after that it is created anyway, so that a dependency
// that never arrives never blocks the workload for good. Updates and deletions are never
// deferred: ordering matters where the workload would start without its configuration.
// Namespaces come first without help: a follower cannot be created before its namespace, so a
// workload waiting for it waits for the namespace too.

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sync/plan/sync_plan.h"

namespace kf::sync {

using OrderingTime = std::chrono::steady_clock::time_point;

struct DependencyState {
  // Per cluster, the followers the workload references that are not propagated there yet
  // (descriptions, e.g. `ConfigMap "app-config"`). Clusters absent have none missing.
  std::map<std::string, std::vector<std::string>> missing;
  // Per cluster, when its creation was first deferred (absent: not deferred before).
  std::map<std::string, OrderingTime> waiting_since;
  OrderingTime now{};
  std::chrono::nanoseconds max_wait{};
};

struct OrderingDecision {
  std::vector<ClusterStep> steps;
  // Clusters whose creation waits this pass, with when their wait began.
  std::map<std::string, OrderingTime> deferred;
  // Clusters where the workload is created although dependencies are missing: the wait ran out.
  std::map<std::string, std::vector<std::string>> gave_up;
};

OrderingDecision orderAfterDependencies(std::vector<ClusterStep> steps,
                                        const DependencyState& state);

}  // namespace kf::sync
