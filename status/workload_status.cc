#include "status/workload_status.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

namespace kf::status {
namespace {

void appendReason(std::string& message, const std::string& reason) {
  if (!message.empty()) message += ", ";
  message += reason;
}

// The clusters the sync controller's status lists, with their propagation status.
std::map<std::string, std::string> propagationClusters(const Json& federated_object) {
  std::map<std::string, std::string> out;
  const Json* clusters = nestedField(federated_object, {"status", "clusters"});
  if (clusters == nullptr || !clusters->is_array()) return out;
  for (const Json& entry : *clusters) {
    if (!entry.is_object() || stringIn(entry, "name").empty()) continue;
    out[stringIn(entry, "name")] = stringIn(entry, "status");
  }
  return out;
}

std::string whyMissing(const std::string& propagation_status) {
  if (propagation_status == "ClusterNotReady") return "cluster not ready";
  if (propagation_status.empty()) return "not in the cluster's cache yet";
  return "not created (" + propagation_status + ")";
}

void putCounts(Json& out, WorkloadKind kind, const Counts& counts) {
  if (isJob(kind)) {
    out["completions"] = counts.desired;
    out["active"] = counts.active;
    out["succeeded"] = counts.succeeded;
    out["failed"] = counts.failed;
    return;
  }
  out["desiredReplicas"] = counts.desired;
  out["replicas"] = counts.replicas;
  out["readyReplicas"] = counts.ready;
  out["availableReplicas"] = counts.available;
  out["updatedReplicas"] = counts.updated;
}

void add(Counts& total, const Counts& counts) {
  total.desired += counts.desired;
  total.replicas += counts.replicas;
  total.ready += counts.ready;
  total.available += counts.available;
  total.updated += counts.updated;
  total.active += counts.active;
  total.succeeded += counts.succeeded;
  total.failed += counts.failed;
}

WorkloadCondition conditionFor(const std::vector<ClusterWorkload>& clusters) {
  if (clusters.empty()) return {"False", "NotPlaced", "the workload is placed in no cluster"};
  std::string lagging;
  for (const ClusterWorkload& cluster : clusters) {
    if (!cluster.rolled_out) appendReason(lagging, cluster.cluster + " (" + cluster.message + ")");
  }
  if (lagging.empty()) return {"True", "RolledOut", ""};
  return {"False", "NotRolledOut", lagging};
}

}  // namespace

std::vector<ClusterWorkload> clusterWorkloads(
    WorkloadKind kind, const Json& federated_object,
    const std::vector<std::pair<std::string, ObjectPtr>>& member_objects) {
  const std::map<std::string, std::string> propagation = propagationClusters(federated_object);
  std::map<std::string, ObjectPtr> held;
  for (const auto& [cluster, object] : member_objects) {
    if (object) held[cluster] = object;
  }
  std::map<std::string, ClusterWorkload> out;
  for (const auto& [cluster, propagation_status] : propagation) {
    if (propagation_status == "WaitingForRemoval") continue;
    auto it = held.find(cluster);
    out[cluster] = it != held.end() ? observeWorkload(kind, cluster, *it->second)
                                    : missingWorkload(cluster, whyMissing(propagation_status));
  }
  for (const auto& [cluster, object] : held) {
    // Not listed yet (the sync controller has not written its status): still the workload's.
    if (!propagation.contains(cluster)) out[cluster] = observeWorkload(kind, cluster, *object);
  }
  std::vector<ClusterWorkload> ordered;
  for (auto& [cluster, workload] : out) ordered.push_back(std::move(workload));
  return ordered;
}

WorkloadStatus summarizeWorkload(WorkloadKind kind, const std::vector<ClusterWorkload>& clusters) {
  Counts total;
  Json entries = Json::array();
  for (const ClusterWorkload& cluster : clusters) {
    Json entry = {{"name", cluster.cluster}};
    if (cluster.reported) {
      add(total, cluster.counts);
      putCounts(entry, kind, cluster.counts);
    }
    entry["rolledOut"] = cluster.rolled_out;
    if (!cluster.message.empty()) entry["message"] = cluster.message;
    entries.push_back(std::move(entry));
  }
  Json workload = Json::object();
  putCounts(workload, kind, total);
  workload["clusters"] = std::move(entries);
  return {std::move(workload), conditionFor(clusters)};
}

std::optional<Json> mergeWorkloadStatus(const Json& federated_object, const WorkloadStatus& desired,
                                        const std::string& now) {
  const Json* stored = nestedField(federated_object, {"status"});
  Json status = stored != nullptr && stored->is_object() ? *stored : Json::object();
  if (!status.contains("conditions") || !status["conditions"].is_array()) {
    status["conditions"] = Json::array();
  }
  Json& conditions = status["conditions"];
  auto it = std::find_if(conditions.begin(), conditions.end(), [](const Json& condition) {
    return condition.is_object() && stringIn(condition, "type") == core::kWorkloadReadyCondition;
  });
  const bool found = it != conditions.end();
  const WorkloadCondition current =
      found ? WorkloadCondition{stringIn(*it, "status"), stringIn(*it, "reason"),
                                stringIn(*it, "message")}
            : WorkloadCondition{};
  const bool workload_same = status.contains("workload") && status["workload"] == desired.workload;
  if (workload_same && found && current == desired.condition) return std::nullopt;

  status["workload"] = desired.workload;
  if (!found) {
    conditions.push_back({{"type", core::kWorkloadReadyCondition}});
    it = std::prev(conditions.end());
  }
  Json& condition = *it;
  if (!found || current.status != desired.condition.status) {
    condition["lastTransitionTime"] = now;
  }
  condition["lastUpdateTime"] = now;
  condition["status"] = desired.condition.status;
  condition["reason"] = desired.condition.reason;
  if (desired.condition.message.empty()) {
    condition.erase("message");
  } else {
    condition["message"] = desired.condition.message;
  }
  return status;
}

}  // namespace kf::status
