#include "apis/core/workload_observation.h"

#include <algorithm>
#include <utility>

namespace kf::core {
namespace {

const Json& statusOf(const Json& object) {
  static const Json kEmpty = Json::object();
  const Json* status = nestedField(object, {"status"});
  return status != nullptr && status->is_object() ? *status : kEmpty;
}

// spec.<field> when it is an integer; `fallback` when absent (the API server's default).
std::int64_t specInt(const Json& object, const char* field, std::int64_t fallback) {
  const Json* value = nestedField(object, {"spec", field});
  return value != nullptr && value->is_number_integer() ? value->get<std::int64_t>() : fallback;
}

bool conditionTrue(const Json& status, const char* type) {
  const auto it = status.find("conditions");
  if (it == status.end() || !it->is_array()) return false;
  return std::any_of(it->begin(), it->end(), [type](const Json& condition) {
    return condition.is_object() && stringIn(condition, "type") == type &&
           stringIn(condition, "status") == "True";
  });
}

bool conditionFalse(const Json& status, const char* type) {
  const auto it = status.find("conditions");
  if (it == status.end() || !it->is_array()) return false;
  return std::any_of(it->begin(), it->end(), [type](const Json& condition) {
    return condition.is_object() && stringIn(condition, "type") == type &&
           stringIn(condition, "status") == "False";
  });
}

std::string fraction(std::int64_t part, std::int64_t whole, const char* what) {
  return std::to_string(part) + "/" + std::to_string(whole) + " " + what;
}

void appendReason(std::string& message, const std::string& reason) {
  if (!message.empty()) message += ", ";
  message += reason;
}

Counts podCounts(WorkloadKind kind, const Json& object) {
  const Json& status = statusOf(object);
  Counts counts;
  if (kind == WorkloadKind::kDaemonSet) {
    counts.desired = int64In(status, "desiredNumberScheduled");
    counts.replicas = int64In(status, "currentNumberScheduled");
    counts.ready = int64In(status, "numberReady");
    counts.available = int64In(status, "numberAvailable");
    counts.updated = int64In(status, "updatedNumberScheduled");
    return counts;
  }
  counts.desired = specInt(object, "replicas", 1);
  counts.replicas = int64In(status, "replicas");
  counts.ready = int64In(status, "readyReplicas");
  counts.available = int64In(status, "availableReplicas");
  // A ReplicaSet never replaces its pods: all it has is current.
  counts.updated =
      kind == WorkloadKind::kReplicaSet ? counts.replicas : int64In(status, "updatedReplicas");
  return counts;
}

ClusterWorkload observePods(WorkloadKind kind, ClusterWorkload out, const Json& object) {
  out.counts = podCounts(kind, object);
  const std::int64_t generation = objectGeneration(object);
  const std::int64_t observed = int64In(statusOf(object), "observedGeneration");
  const Counts& c = out.counts;
  if (observed < generation) {
    appendReason(out.message, "generation " + std::to_string(generation) + " not observed yet");
  }
  if (kind != WorkloadKind::kReplicaSet && c.updated != c.desired) {
    appendReason(out.message, fraction(c.updated, c.desired, "updated"));
  }
  if (c.available != c.desired) {
    appendReason(out.message, fraction(c.available, c.desired, "available"));
  }
  // A Deployment whose new pods cannot start (a broken image) keeps its old ones: with one
  // replica the surge pod fails while the old pod stays available, so updated and available
  // both equal desired, and only the old pods still counted in replicas show the rollout hangs.
  if (kind == WorkloadKind::kDeployment && c.updated == c.desired && c.replicas > c.updated) {
    appendReason(out.message, std::to_string(c.replicas - c.updated) + " old replicas pending");
  }
  out.rolled_out = out.message.empty();
  out.failed = kind == WorkloadKind::kDeployment && conditionFalse(statusOf(object), "Progressing");
  return out;
}

ClusterWorkload observeJob(ClusterWorkload out, const Json& object) {
  const Json& status = statusOf(object);
  out.counts.desired = specInt(object, "completions", 1);
  out.counts.active = int64In(status, "active");
  out.counts.succeeded = int64In(status, "succeeded");
  out.counts.failed = int64In(status, "failed");
  out.rolled_out = conditionTrue(status, "Complete");
  if (conditionTrue(status, "Failed")) {
    out.failed = true;
    out.message = "failed";
  } else if (!out.rolled_out) {
    out.message = fraction(out.counts.succeeded, out.counts.desired, "succeeded");
  }
  return out;
}

}  // namespace

ClusterWorkload observeWorkload(WorkloadKind kind, const std::string& cluster,
                                const Json& member_object) {
  ClusterWorkload out;
  out.cluster = cluster;
  out.reported = true;
  return isJob(kind) ? observeJob(std::move(out), member_object)
                     : observePods(kind, std::move(out), member_object);
}

ClusterWorkload missingWorkload(const std::string& cluster, std::string why) {
  ClusterWorkload out;
  out.cluster = cluster;
  out.message = std::move(why);
  return out;
}

}  // namespace kf::core
