#include "federation/scheduling/replica_state.h"

#include "apis/meta/field_errors.h"

namespace kf::scheduling {

namespace {

// The member at `path` under `object`, or nullptr when it or a parent is absent or null.
const Json* memberAt(const Json& object, std::initializer_list<const char*> path) {
  const Json* at = &object;
  for (const char* key : path) {
    if (!at->is_object()) return nullptr;
    auto it = at->find(key);
    if (it == at->end() || it->is_null()) return nullptr;
    at = &*it;
  }
  return at;
}

Result<std::int64_t> optionalInteger(const Json& workload, const char* parent, const char* key) {
  const Json* value = memberAt(workload, {parent, key});
  if (value == nullptr) return std::int64_t{0};
  if (!value->is_number_integer()) {
    return meta::decodeError(meta::FieldPath(parent).child(key), "expected integer");
  }
  return value->get<std::int64_t>();
}

}  // namespace

Result<WorkloadReplicas> readWorkloadReplicas(const Json& workload) {
  KF_TRY(desired, optionalInteger(workload, "spec", "replicas"));
  KF_TRY(ready, optionalInteger(workload, "status", "readyReplicas"));
  return WorkloadReplicas{desired, ready};
}

Result<std::map<std::string, std::string>> podMatchLabels(const Json& workload) {
  const Json* labels = memberAt(workload, {"spec", "selector", "matchLabels"});
  if (labels == nullptr) {
    return makeError(Reason::kBadRequest,
                     "missing selector on object: spec.selector.matchLabels is required to find "
                     "the workload's pods");
  }
  const meta::FieldPath path("spec.selector.matchLabels");
  if (!labels->is_object()) return meta::decodeError(path, "expected object");
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : labels->items()) {
    KF_TRY(text, meta::readString(value, path.key(key)));
    out.emplace(key, std::move(text));
  }
  return out;
}

std::string labelSelectorText(const std::map<std::string, std::string>& match_labels) {
  std::string out;
  for (const auto& [key, value] : match_labels) {
    if (!out.empty()) out += ',';
    out += key + "=" + value;
  }
  return out;
}

Result<ReplicaState> replicaState(const std::map<std::string, WorkloadObservation>& observed) {
  ReplicaState out;
  for (const auto& [cluster, observation] : observed) {
    const auto& replicas = observation.replicas;
    if (!replicas.podsNeeded()) {
      out.current[cluster] = replicas.ready;
      continue;
    }
    if (!observation.pods) {
      return makeError(Reason::kBadRequest, "cluster " + meta::goQuote(cluster) +
                                                ": the workload's pods were not analysed");
    }
    const auto& pods = *observation.pods;
    out.current[cluster] = pods.running_and_ready;
    if (pods.unschedulable > 0) {
      out.capacity[cluster] = std::max<std::int64_t>(0, replicas.desired - pods.unschedulable);
    }
    // KubeFed keeps only the outcome of the last cluster it analysed; any cluster counts here.
    out.needs_recheck = out.needs_recheck || pods.needs_recheck;
  }
  return out;
}

}  // namespace kf::scheduling
