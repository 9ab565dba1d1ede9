#include "sync/plan/overrides.h"

#include <algorithm>
#include <set>

#include "apis/meta/field_errors.h"
#include "sync/plan/json_patch.h"
#include "sync/plan/unstructured_fields.h"

namespace kf::sync {

namespace {

bool isForbiddenPath(const std::string& path) {
  return std::find(std::begin(kForbiddenOverridePaths), std::end(kForbiddenOverridePaths), path) !=
         std::end(kForbiddenOverridePaths);
}

ApiError overrideError(std::string message) {
  return makeError(Reason::kInvalid, std::move(message));
}

Status checkClusterOverrides(const federated::ClusterOverrides& item) {
  std::set<std::string> paths;
  for (std::size_t i = 0; i < item.cluster_overrides.size(); ++i) {
    const std::string& path = item.cluster_overrides[i].path;
    if (isForbiddenPath(path)) {
      return overrideError("override[" + std::to_string(i) + "] for cluster " +
                           meta::goQuote(item.cluster_name) + " has an invalid path: " + path);
    }
    if (!paths.insert(path).second) {
      return overrideError("path " + meta::goQuote(path) + " appears more than once for cluster " +
                           meta::goQuote(item.cluster_name));
    }
  }
  return boost::outcome_v2::success();
}

JsonPatchOperation toPatchOperation(const federated::ClusterOverride& override_item) {
  JsonPatchOperation operation;
  operation.op = override_item.op.empty() ? "replace" : override_item.op;
  operation.path = override_item.path;
  if (override_item.value) operation.value = throughGoFloat64(*override_item.value);
  return operation;
}

}  // namespace

Result<OverridesMap> overridesByCluster(const std::vector<federated::ClusterOverrides>& items) {
  OverridesMap out;
  for (const auto& item : items) {
    if (out.count(item.cluster_name) != 0) {
      return overrideError("cluster " + meta::goQuote(item.cluster_name) +
                           " appears more than once");
    }
    if (auto checked = checkClusterOverrides(item); !checked) return std::move(checked).error();
    out.emplace(item.cluster_name, item.cluster_overrides);
  }
  return out;
}

Result<OverridesMap> readOverridesMap(const Json& federated_object) {
  KF_TRY(items, federated::readOverrides(federated_object));
  return overridesByCluster(items);
}

Status applyClusterOverrides(Json& object, const std::string& cluster_name,
                             const std::vector<federated::ClusterOverride>& overrides) {
  Json patched = object;
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    const JsonPatchOperation operation = toPatchOperation(overrides[i]);
    auto applied = applyJsonPatchOperation(patched, operation);
    if (!applied) {
      return overrideError("cluster " + meta::goQuote(cluster_name) + ": override[" +
                           std::to_string(i) + "] (" + operation.op + " " + operation.path +
                           "): " + applied.error().message);
    }
  }
  object = std::move(patched);
  return boost::outcome_v2::success();
}

}  // namespace kf::sync
