#pragma once
// The ReplicaSchedulingPreference reconciler (spec §2.7): spreads an RSP's spec.totalReplicas
// over its candidate clusters and writes the result into the federated object of the same
// namespace and name (spec.placement.clusters and /spec/replicas overrides), which the sync
// controller then propagates. Observe (caches, the pods of workloads not at their desired
// replicas), decide (federation/scheduling, pure), act (at most one full update of the federated
// object, only when it does not carry the result yet).
//
// Reconcile of an RSP `ns/name`:
//   1. RSP gone: nothing. Unreadable or invalid preferences: a Warning event on the RSP, nothing
//      else until it changes.
//   2. No ready cluster: nothing. spec.targetKind not FederatedDeployment/FederatedReplicaSet:
//      logged, looked at again after the retry delay. No plugin for the kind, or no federated
//      object of that name: nothing (its appearance queues the RSP). Caches incomplete: NotSynced.
//   3. Candidates: the ready clusters, or with intersectWithClusterSelector those both the
//      federated object's and its FederatedNamespace's clusterSelector select.
//   4. Current replicas and capacity from the member workloads (and their pods).
//   5-7. The planner's result, 0 for clusters running the workload outside the plan.
//   8. The federated object updated when its placement or replicas overrides differ.
// Pods unschedulable for less than 60 s make the result NeedsRecheck, after the write. Capacities
// estimated from pods unschedulable for long are remembered for a while (capacity_memory.h), so
// that replicas moved off a cluster do not swing back while they start elsewhere; the RSP is
// rechecked while any is remembered.

#include <string>
#include <vector>

#include "apis/scheduling/replica_scheduling_preference.h"
#include "controllers/scheduling/scheduled_type.h"
#include "federation/client/rest_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/reconciler.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/store.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"
#include "federation/scheduling/capacity_memory.h"
#include "federation/scheduling/replica_state.h"

namespace kf::scheduling {

// Every reference must outlive the reconciler.
struct RspReconcilerDeps {
  const Store& rsps;  // ReplicaSchedulingPreferences of the target namespace
  ClusterRegistry& clusters;
  ScheduledTypeLookup types;
  RestClient& host;
  EventRecorder& events;
  Clock& clock;  // its wall time ages unschedulable pods, its steady time remembered capacities
};

class RspReconciler final : public Reconciler {
 public:
  explicit RspReconciler(RspReconcilerDeps deps) : deps_(std::move(deps)) {}

  ReconcileResult reconcile(const std::string& key) override;

 private:
  Result<std::vector<std::string>> candidates(const ScheduledType& type,
                                              const ReplicaSchedulingPreferenceSpec& spec,
                                              const Json& federated) const;
  Result<ReplicaState> observeReplicas(const ScheduledType& type,
                                       const std::vector<std::string>& candidates,
                                       const std::string& key) const;
  Result<WorkloadObservation> observeWorkload(const std::string& cluster,
                                              const Json& workload) const;
  // Writes `result` into the federated object unless it carries it already.
  Status writeResult(const ScheduledType& type, const Json& cached,
                     const ReplicaCounts& result) const;

  // Completes `state` with the capacities remembered for `key` and remembers its own.
  ReplicaState withRememberedCapacities(const std::string& key, ReplicaState state);

  RspReconcilerDeps deps_;
  Mutex memory_mu_;  // reconciles of different RSPs run at once
  CapacityMemory memory_ KF_GUARDED_BY(memory_mu_);
};

}  // namespace kf::scheduling
