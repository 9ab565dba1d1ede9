#include "sync/plan/federated_status.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iterator>
#include <vector>

#include "apis/meta/object.h"
#include "apis/meta/time.h"
#include "sync/plan/unstructured_fields.h"

namespace kf::sync {

namespace {

constexpr std::string_view kPropagationCondition = "Propagation";

// The parts of a federated object's status KubeFed reads back (its GenericFederatedStatus).
// KubeFed drops anything else when it writes the status again; we keep it (`extra`), so that
// what other writers add (the workload status, a condition's message) survives a propagation
// status write.
struct StoredCondition {
  std::string type;
  std::string status;
  std::string last_update_time;
  std::string last_transition_time;
  std::string reason;
  Json extra = Json::object();
};

struct StoredCluster {
  std::string name;
  std::string status;
  std::optional<Json> remote_status;  // nullopt: absent or null (Go's nil)
};

struct StoredStatus {
  std::int64_t observed_generation = 0;
  std::vector<StoredCondition> conditions;
  std::vector<StoredCluster> clusters;
  Json extra = Json::object();
};

// `extra` without the keys the typed fields own (a zero value is left unconsumed by the reader).
Json withoutKeys(Json extra, std::initializer_list<const char*> keys) {
  for (const char* key : keys) extra.erase(key);
  return extra;
}

Result<StoredCondition> readCondition(const Json& json, const meta::FieldPath& path) {
  KF_TRY(reader, meta::ObjectReader::open(json, path));
  StoredCondition out;
  KF_TRY(type, reader.string("type"));
  KF_TRY(status, reader.string("status"));
  KF_TRY(last_update, reader.string("lastUpdateTime"));
  KF_TRY(last_transition, reader.string("lastTransitionTime"));
  KF_TRY(reason, reader.string("reason"));
  out.type = std::move(type);
  out.status = std::move(status);
  out.last_update_time = std::move(last_update);
  out.last_transition_time = std::move(last_transition);
  out.reason = std::move(reason);
  out.extra = withoutKeys(reader.rest(),
                          {"type", "status", "lastUpdateTime", "lastTransitionTime", "reason"});
  return out;
}

Result<StoredCluster> readCluster(const Json& json, const meta::FieldPath& path) {
  KF_TRY(reader, meta::ObjectReader::open(json, path));
  StoredCluster out;
  KF_TRY(name, reader.string("name"));
  KF_TRY(status, reader.string("status"));
  out.name = std::move(name);
  out.status = std::move(status);
  if (const Json* remote = reader.optValue("remoteStatus")) {
    out.remote_status = throughGoFloat64(*remote);
  }
  return out;
}

Result<StoredStatus> readStatusFields(const Json& status) {
  KF_TRY(reader, meta::ObjectReader::open(status, meta::FieldPath("status")));
  StoredStatus out;
  KF_TRY(generation, reader.int64("observedGeneration"));
  out.observed_generation = generation;
  if (const Json* conditions = reader.plainValue("conditions")) {
    KF_TRY(list,
           meta::readArray<StoredCondition>(*conditions, reader.path("conditions"), readCondition));
    out.conditions = std::move(list);
  }
  if (const Json* clusters = reader.plainValue("clusters")) {
    KF_TRY(list, meta::readArray<StoredCluster>(*clusters, reader.path("clusters"), readCluster));
    out.clusters = std::move(list);
  }
  out.extra = withoutKeys(reader.rest(), {"observedGeneration", "conditions", "clusters"});
  return out;
}

Result<StoredStatus> readStoredStatus(const Json& federated_object) {
  const Json* status = nestedField(federated_object, {"status"});
  if (status == nullptr || status->is_null()) return StoredStatus();
  auto stored = readStatusFields(*status);
  if (!stored) {
    return makeError(Reason::kBadRequest,
                     "Failed to unmarshall to generic resource: " + stored.error().message);
  }
  return stored;
}

// A collected remote status as KubeFed compares and stores it; nullopt for Go's nil.
std::optional<Json> normalizedRemote(const ClusterOutcome& cluster) {
  if (!cluster.remote_status || cluster.remote_status->is_null()) return std::nullopt;
  return throughGoFloat64(*cluster.remote_status);
}

std::size_t collectedRemoteCount(const PropagationOutcome& outcome) {
  return static_cast<std::size_t>(
      std::count_if(outcome.clusters.begin(), outcome.clusters.end(),
                    [](const auto& entry) { return entry.second.remote_status.has_value(); }));
}

// Steps 1 and 2.
AggregateReason namespaceCheckedReason(const PropagationOutcome& outcome) {
  const auto& facts = outcome.namespace_facts;
  if (outcome.reason == AggregateReason::kSuccess && !facts.namespace_scoped_control_plane &&
      facts.type_namespaced && !facts.federated_namespace_exists) {
    return AggregateReason::kNamespaceNotFederated;
  }
  return outcome.reason;
}

AggregateReason clusterCheckedReason(AggregateReason reason, const PropagationOutcome& outcome) {
  if (reason != AggregateReason::kSuccess) return reason;
  for (const auto& [name, cluster] : outcome.clusters) {
    const bool missing_remote = !normalizedRemote(cluster).has_value();
    if (cluster.status != PropagationStatus::kOk ||
        (outcome.raw_status_collection && missing_remote)) {
      return AggregateReason::kCheckClusters;
    }
  }
  return reason;
}

bool clustersDiffer(const std::vector<StoredCluster>& stored, const PropagationOutcome& outcome) {
  if (stored.size() != outcome.clusters.size()) return true;
  if (outcome.raw_status_collection && stored.size() != collectedRemoteCount(outcome)) return true;
  for (const auto& entry : stored) {
    auto it = outcome.clusters.find(entry.name);
    const std::string_view status =
        it == outcome.clusters.end() ? "" : propagationStatusName(it->second.status);
    if (status != entry.status) return true;
    const auto remote = it == outcome.clusters.end() ? std::nullopt : normalizedRemote(it->second);
    if (remote != entry.remote_status) return true;
  }
  return false;
}

std::vector<StoredCluster> rebuiltClusters(const PropagationOutcome& outcome) {
  std::vector<StoredCluster> out;
  for (const auto& [name, cluster] : outcome.clusters) {
    out.push_back(StoredCluster{name, std::string(propagationStatusName(cluster.status)),
                                normalizedRemote(cluster)});
  }
  return out;
}

// Step 5; true when the condition changed (a transition or a new lastUpdateTime).
bool setPropagationCondition(std::vector<StoredCondition>& conditions, AggregateReason reason,
                             bool changes_propagated, const std::string& now) {
  const std::string status = reason == AggregateReason::kSuccess ? "True" : "False";
  const std::string reason_name(aggregateReasonName(reason));
  auto it = std::find_if(conditions.begin(), conditions.end(),
                         [](const StoredCondition& c) { return c.type == kPropagationCondition; });
  const bool created = it == conditions.end();
  if (created) {
    conditions.push_back(StoredCondition{std::string(kPropagationCondition), "", "", "", "", {}});
    it = std::prev(conditions.end());
  }
  const bool transition = created || it->status != status || it->reason != reason_name;
  if (transition) {
    it->last_transition_time = now;
    it->status = status;
    it->reason = reason_name;
  }
  const bool update_required = changes_propagated || transition;
  if (update_required) it->last_update_time = now;
  return update_required;
}

void putIfNotEmpty(Json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}

Json toJson(const StoredStatus& status) {
  Json out = status.extra.is_object() ? status.extra : Json::object();
  if (status.observed_generation != 0) out["observedGeneration"] = status.observed_generation;
  if (!status.conditions.empty()) {
    Json conditions = Json::array();
    for (const auto& condition : status.conditions) {
      Json entry = condition.extra.is_object() ? condition.extra : Json::object();
      entry["type"] = condition.type;
      entry["status"] = condition.status;
      putIfNotEmpty(entry, "lastUpdateTime", condition.last_update_time);
      putIfNotEmpty(entry, "lastTransitionTime", condition.last_transition_time);
      putIfNotEmpty(entry, "reason", condition.reason);
      conditions.push_back(std::move(entry));
    }
    out["conditions"] = std::move(conditions);
  }
  if (!status.clusters.empty()) {
    Json clusters = Json::array();
    for (const auto& cluster : status.clusters) {
      Json entry = {{"name", cluster.name}};
      putIfNotEmpty(entry, "status", cluster.status);
      if (cluster.remote_status) entry["remoteStatus"] = *cluster.remote_status;
      clusters.push_back(std::move(entry));
    }
    out["clusters"] = std::move(clusters);
  }
  return out;
}

// status.rollout as the outcome has it (set, or absent without a strategy); true when it changed.
bool setRolloutSummary(Json& extra, const std::optional<Json>& summary) {
  const auto stored = extra.find("rollout");
  if (!summary) {
    if (stored == extra.end()) return false;
    extra.erase(stored);
    return true;
  }
  if (stored != extra.end() && *stored == *summary) return false;
  extra["rollout"] = *summary;
  return true;
}

bool anyRecoverable(const PropagationOutcome& outcome) {
  return std::any_of(outcome.clusters.begin(), outcome.clusters.end(),
                     [](const auto& entry) { return isRecoverable(entry.second.status); });
}

}  // namespace

std::string formatRfc3339Seconds(WallClock time) { return meta::formatTime(time); }

Result<FederatedStatusUpdate> computeFederatedStatus(const Json& federated_object,
                                                     const PropagationOutcome& outcome,
                                                     WallClock now) {
  KF_TRY(stored, readStoredStatus(federated_object));
  FederatedStatusUpdate out;
  const AggregateReason reason_before_check = namespaceCheckedReason(outcome);
  out.reason = clusterCheckedReason(reason_before_check, outcome);

  const std::int64_t generation = objectGeneration(federated_object);
  const bool generation_updated = stored.observed_generation != generation;
  stored.observed_generation = generation;

  const bool clusters_changed = clustersDiffer(stored.clusters, outcome);
  if (clusters_changed) stored.clusters = rebuiltClusters(outcome);
  const bool changes_propagated =
      clusters_changed ||
      (!outcome.clusters.empty() && collectedRemoteCount(outcome) > 0 && outcome.resources_updated);
  const bool condition_updated = setPropagationCondition(
      stored.conditions, out.reason, changes_propagated, formatRfc3339Seconds(now));
  const bool rollout_changed = setRolloutSummary(stored.extra, outcome.rollout);
  out.status = toJson(stored);
  // KubeFed writes whenever the condition was set, even to the same second it already holds;
  // the server then stores nothing new, so that request only spends the host's rate limit.
  const Json* current = nestedField(federated_object, {"status"});
  out.changed = (generation_updated || condition_updated || rollout_changed) &&
                (current == nullptr || *current != out.status);
  out.retry_recoverable =
      reason_before_check == AggregateReason::kSuccess && anyRecoverable(outcome);
  return out;
}

}  // namespace kf::sync
