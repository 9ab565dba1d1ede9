#include "federation/scheduling/federated_update.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "apis/federated/federated_resource.h"
#include "apis/meta/field_errors.h"
#include "federation/scheduling/object_fields.h"

namespace kf::scheduling {

namespace {

using federated::ClusterOverride;
using federated::ClusterOverrides;

// Paths KubeFed never lets an override touch: they tie member objects to the federated object.
constexpr std::string_view kForbiddenPaths[] = {"/metadata/namespace", "/metadata/name",
                                                "/metadata/generateName", "/kind"};

std::string kindOf(const Json& object) {
  if (!object.is_object()) return "federated object";
  auto kind = object.find("kind");
  return kind != object.end() && kind->is_string() ? kind->get<std::string>() : "federated object";
}

ApiError aboutObject(const Json& object, std::string_view what, ApiError error) {
  const std::string kind = kindOf(object);
  error.message = std::string(what) + " of " + kind + " " + meta::goQuote(objectKey(object)) +
                  ": " + error.message;
  return error;
}

bool isForbiddenPath(const std::string& path) {
  return std::find(std::begin(kForbiddenPaths), std::end(kForbiddenPaths), path) !=
         std::end(kForbiddenPaths);
}

// KubeFed's checks of spec.overrides, with its messages.
Status checkOverrides(const std::vector<ClusterOverrides>& entries) {
  std::set<std::string> clusters;
  for (const auto& entry : entries) {
    const auto& name = entry.cluster_name;
    if (!clusters.insert(name).second) {
      return makeError(Reason::kBadRequest,
                       "cluster " + meta::goQuote(name) + " appears more than once");
    }
    std::set<std::string> paths;
    for (std::size_t i = 0; i < entry.cluster_overrides.size(); ++i) {
      const auto& path = entry.cluster_overrides[i].path;
      if (isForbiddenPath(path)) {
        return makeError(Reason::kBadRequest, "override[" + std::to_string(i) + "] for cluster " +
                                                  meta::goQuote(name) +
                                                  " has an invalid path: " + path);
      }
      if (!paths.insert(path).second) {
        return makeError(Reason::kBadRequest, "path " + meta::goQuote(path) +
                                                  " appears more than once for cluster " +
                                                  meta::goQuote(name));
      }
    }
  }
  return boost::outcome_v2::success();
}

bool placementNeedsUpdate(const federated::Placement& placement, const ReplicaCounts& result) {
  std::vector<std::string> current = placement.clusters.value_or(std::vector<std::string>());
  std::sort(current.begin(), current.end());
  std::vector<std::string> wanted;
  for (const auto& [cluster, replicas] : result) wanted.push_back(cluster);
  return current != wanted;
}

// A replicas override value as KubeFed compares it: float64 truncated to int64; nullopt when it
// is not a number (or out of int64's range), which always differs.
std::optional<std::int64_t> comparableReplicas(const std::optional<Json>& value) {
  if (!value || !value->is_number()) return std::nullopt;
  if (value->is_number_integer() && !value->is_number_unsigned()) {
    return value->get<std::int64_t>();
  }
  const double number = std::trunc(value->get<double>());
  // 2^63 is exactly representable; anything at or above it does not fit.
  if (!(number >= -9223372036854775808.0 && number < 9223372036854775808.0)) return std::nullopt;
  return static_cast<std::int64_t>(number);
}

bool overridesNeedUpdate(const std::vector<ClusterOverrides>& entries,
                         const ReplicaCounts& result) {
  std::size_t matching = 0;
  for (const auto& entry : entries) {
    for (const auto& override_item : entry.cluster_overrides) {
      if (override_item.path != kReplicasPath) continue;
      const auto value = comparableReplicas(override_item.value);
      auto wanted = result.find(entry.cluster_name);
      if (!value || wanted == result.end() || *value != wanted->second) return true;
      ++matching;
    }
  }
  return matching != result.size();
}

ClusterOverride replicasOverride(std::int64_t replicas) {
  return ClusterOverride{"", std::string(kReplicasPath), Json(replicas)};
}

std::vector<ClusterOverrides> updatedOverrides(std::vector<ClusterOverrides> entries,
                                               const ReplicaCounts& result) {
  std::set<std::string> seen;
  for (auto& entry : entries) {
    seen.insert(entry.cluster_name);
    auto& list = entry.cluster_overrides;
    auto replicas = std::find_if(list.begin(), list.end(),
                                 [](const ClusterOverride& o) { return o.path == kReplicasPath; });
    auto wanted = result.find(entry.cluster_name);
    if (wanted == result.end()) {
      if (replicas != list.end()) list.erase(replicas);
    } else if (replicas != list.end()) {
      replicas->value = Json(wanted->second);
    } else {
      list.push_back(replicasOverride(wanted->second));
    }
  }
  for (const auto& [cluster, replicas] : result) {
    if (seen.count(cluster) == 0) entries.push_back({cluster, {replicasOverride(replicas)}});
  }
  return entries;
}

// As KubeFed writes overrides back: `op` and `value` only when set.
Json overridesJson(const std::vector<ClusterOverrides>& entries) {
  Json out = Json::array();
  for (const auto& entry : entries) {
    Json list = Json::array();
    for (const auto& override_item : entry.cluster_overrides) {
      Json item{{"path", override_item.path}};
      if (!override_item.op.empty()) item["op"] = override_item.op;
      if (override_item.value) item["value"] = *override_item.value;
      list.push_back(std::move(item));
    }
    out.push_back(Json{{"clusterName", entry.cluster_name}, {"clusterOverrides", std::move(list)}});
  }
  return out;
}

Json placementClustersJson(const ReplicaCounts& result) {
  Json out = Json::array();
  for (const auto& [cluster, replicas] : result) out.push_back(Json{{"name", cluster}});
  return out;
}

}  // namespace

Result<std::optional<Json>> applySchedulingResult(const Json& federated_object,
                                                  const ReplicaCounts& result) {
  auto placement = federated::readPlacement(federated_object);
  if (!placement) return aboutObject(federated_object, "placement", std::move(placement).error());
  auto entries = federated::readOverrides(federated_object);
  if (!entries) return aboutObject(federated_object, "overrides", std::move(entries).error());
  if (auto checked = checkOverrides(entries.value()); !checked) {
    return aboutObject(federated_object, "overrides", std::move(checked).error());
  }

  const bool placement_dirty = placementNeedsUpdate(placement.value(), result);
  const bool overrides_dirty = overridesNeedUpdate(entries.value(), result);
  if (!placement_dirty && !overrides_dirty) return std::optional<Json>();

  Json updated = federated_object;
  Json& spec = updated["spec"];
  if (placement_dirty) spec["placement"]["clusters"] = placementClustersJson(result);
  if (overrides_dirty) {
    spec["overrides"] = overridesJson(updatedOverrides(std::move(entries).value(), result));
  }
  return std::optional<Json>(std::move(updated));
}

}  // namespace kf::scheduling
