#include "status/service_status.h"

#include <algorithm>
#include <utility>

namespace kf::status {
namespace {

Json ownerReferenceTo(const Json& federated) {
  return {{"apiVersion", federated.value("apiVersion", "")},
          {"kind", federated.value("kind", "")},
          {"name", objectName(federated)},
          {"uid", objectUid(federated)}};
}

Json newStatusObject(const Json& federated, const core::ApiResource& status_type,
                     Json cluster_status) {
  Json metadata = {{"name", objectName(federated)},
                   {"ownerReferences", Json::array({ownerReferenceTo(federated)})}};
  if (const std::string ns = objectNamespace(federated); !ns.empty()) metadata["namespace"] = ns;
  return {{"apiVersion", status_type.apiVersion()},
          {"kind", status_type.kind},
          {"metadata", std::move(metadata)},
          {"clusterStatus", std::move(cluster_status)}};
}

}  // namespace

Json clusterStatusOf(std::vector<MemberObject> members) {
  std::sort(members.begin(), members.end(),
            [](const MemberObject& a, const MemberObject& b) { return a.cluster < b.cluster; });
  Json out = Json::array();
  for (const MemberObject& member : members) {
    Json entry = {{"clusterName", member.cluster}};
    // A member object without a status (or none at all) leaves the entry without one.
    if (member.object) {
      const Json* status = nestedField(*member.object, {"status"});
      if (status != nullptr && status->is_object()) entry["status"] = *status;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

StatusObjectPlan planStatusObject(const Json& federated, const core::ApiResource& status_type,
                                  const Json* existing, Json cluster_status) {
  if (existing == nullptr) {
    return {StatusObjectWrite::kCreate,
            newStatusObject(federated, status_type, std::move(cluster_status))};
  }
  const Json stored = existing->value("clusterStatus", Json());
  if (stored == cluster_status) return {};
  Json updated = *existing;
  updated["clusterStatus"] = std::move(cluster_status);
  return {StatusObjectWrite::kUpdate, std::move(updated)};
}

}  // namespace kf::status
