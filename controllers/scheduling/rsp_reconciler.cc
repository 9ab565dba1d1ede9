#include "controllers/scheduling/rsp_reconciler.h"

#include <spdlog/spdlog.h>

#include <map>
#include <set>
#include <utility>

#include "federation/client/resource_client.h"
#include "federation/scheduling/candidates.h"
#include "federation/scheduling/federated_update.h"
#include "federation/scheduling/planner.h"
#include "federation/scheduling/schedule.h"

namespace kf::scheduling {

namespace {

const GroupVersionResource kPods{"", "v1", "pods", true};

std::vector<ReadyCluster> readyClusters(const ClusterRegistry& registry) {
  std::vector<ReadyCluster> ready;
  for (const ClusterSnapshot& cluster : registry.clusters()) {
    if (cluster.ready) ready.push_back(ReadyCluster{cluster.name, cluster.labels});
  }
  return ready;
}

ApiError inCluster(const std::string& cluster, const std::string& key, ApiError error) {
  error.message = "member workload " + key + " in cluster " + cluster + ": " + error.message;
  return error;
}

}  // namespace

ReconcileResult RspReconciler::reconcile(const std::string& key) {
  ObjectPtr object = deps_.rsps.get(key);
  if (!object) {
    MutexLock lock(memory_mu_);
    memory_.forget(key);
    return ReconcileStatus::kOk;
  }
  auto rsp = ReplicaSchedulingPreference::fromJson(*object);
  Status valid = rsp ? validatePreferences(rsp.value().spec) : Status(rsp.error());
  if (!valid) {
    // Bad input is not retried: the RSP's next change queues it again.
    const std::string message = "ReplicaSchedulingPreference " + key +
                                " cannot be scheduled: " + valid.error().message +
                                "; correct the RSP";
    spdlog::error("{}", message);
    deps_.events.event(referenceTo(*object), EventType::kWarning, "InvalidPreferences", message);
    return ReconcileStatus::kOk;
  }
  const ReplicaSchedulingPreferenceSpec& spec = rsp.value().spec;
  if (readyClusters(deps_.clusters).empty()) return ReconcileStatus::kOk;
  if (!isSchedulableTargetKind(spec.target_kind)) {
    spdlog::error(
        "ReplicaSchedulingPreference {}: spec.targetKind \"{}\" is not supported; use "
        "FederatedDeployment or FederatedReplicaSet",
        key, spec.target_kind);
    return ReconcileStatus::kNeedsRecheck;
  }
  ScheduledTypePtr type = deps_.types(spec.target_kind);
  if (!type) return ReconcileStatus::kOk;
  if (!type->synced()) return ReconcileStatus::kNotSynced;
  ObjectPtr federated = type->federatedObject(key);
  if (!federated) return ReconcileStatus::kOk;

  KF_TRY(clusters, candidates(*type, spec, *federated));
  if (clusters.empty()) return ReconcileStatus::kOk;
  KF_TRY(observed, observeReplicas(*type, clusters, key));
  const ReplicaState state = withRememberedCapacities(key, std::move(observed));
  KF_TRY(result, scheduleReplicas(spec, clusters, state, key));
  KF_TRYV(writeResult(*type, *federated, result));
  return state.needs_recheck ? ReconcileStatus::kNeedsRecheck : ReconcileStatus::kOk;
}

Result<std::vector<std::string>> RspReconciler::candidates(
    const ScheduledType& type, const ReplicaSchedulingPreferenceSpec& spec,
    const Json& federated) const {
  // Read again: readiness may have changed since the check in reconcile().
  const std::vector<ReadyCluster> ready = readyClusters(deps_.clusters);
  if (!spec.intersect_with_cluster_selector) return readyClusterNames(ready);
  const std::string ns = objectNamespace(federated);
  ResourceClient namespaces(deps_.host, type.federatedNamespaceResource(), ns);
  Result<Json> federated_namespace = namespaces.get(ns);
  if (!federated_namespace && !isNotFound(federated_namespace.error())) {
    return std::move(federated_namespace).error();
  }
  const Json* found = federated_namespace ? &federated_namespace.value() : nullptr;
  return clustersSelectedForScheduling(ready, federated, found);
}

Result<ReplicaState> RspReconciler::observeReplicas(const ScheduledType& type,
                                                    const std::vector<std::string>& candidates,
                                                    const std::string& key) const {
  std::map<std::string, WorkloadObservation> observed;
  for (const std::string& cluster : candidates) {
    ObjectPtr workload = type.memberWorkload(cluster, key);
    if (!workload) continue;
    auto observation = observeWorkload(cluster, *workload);
    if (!observation) return inCluster(cluster, key, std::move(observation).error());
    observed.emplace(cluster, std::move(observation).value());
  }
  return replicaState(observed);
}

ReplicaState RspReconciler::withRememberedCapacities(const std::string& key, ReplicaState state) {
  MutexLock lock(memory_mu_);
  return memory_.recall(key, std::move(state), deps_.clock.now());
}

Result<WorkloadObservation> RspReconciler::observeWorkload(const std::string& cluster,
                                                           const Json& workload) const {
  KF_TRY(replicas, readWorkloadReplicas(workload));
  WorkloadObservation observation{.replicas = replicas, .pods = std::nullopt};
  if (!replicas.podsNeeded()) return observation;
  KF_TRY(match_labels, podMatchLabels(workload));
  KF_TRY(client, deps_.clusters.client(cluster));
  ResourceClient pods(*client, kPods, objectNamespace(workload));
  KF_TRY(listed, pods.listAll({.label_selector = labelSelectorText(match_labels)}));
  KF_TRY(analysis, analyzePods(listed.items, deps_.clock.wallNow()));
  observation.pods = analysis;
  return observation;
}

Status RspReconciler::writeResult(const ScheduledType& type, const Json& cached,
                                  const ReplicaCounts& result) const {
  // The cache first: an object that carries the result already costs no request.
  KF_TRY(from_cache, applySchedulingResult(cached, result));
  if (!from_cache) return boost::outcome_v2::success();
  // Then, as KubeFed, the object as stored now, updated in full only if it still differs.
  ResourceClient client(deps_.host, type.federatedResource(), objectNamespace(cached));
  Result<Json> live = client.get(objectName(cached));
  if (!live) {
    if (isNotFound(live.error())) return boost::outcome_v2::success();  // deleted meanwhile
    return std::move(live).error();
  }
  KF_TRY(updated, applySchedulingResult(live.value(), result));
  if (!updated) return boost::outcome_v2::success();
  KF_TRYV(client.update(*updated));
  std::string summary;
  for (const auto& [cluster, replicas] : result) {
    summary += (summary.empty() ? "" : " ") + cluster + "=" + std::to_string(replicas);
  }
  spdlog::info("Scheduled {} {}: {}", type.federatedResource().resource, objectKey(cached),
               summary);
  return boost::outcome_v2::success();
}

}  // namespace kf::scheduling
