#include "sync/plan/propagated_versions.h"

#include <algorithm>
#include <cctype>

#include "apis/meta/object.h"

namespace kf::sync {

namespace {

std::string lowerCase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string stringField(const Json& object, const char* key) {
  const Json* value = nestedField(object, {key});
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

bool sameVersions(const std::vector<core::ClusterObjectVersion>& a,
                  const std::vector<core::ClusterObjectVersion>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.cluster_name == y.cluster_name && x.version == y.version;
  });
}

std::vector<core::ClusterObjectVersion> toSortedList(const ClusterVersions& versions) {
  std::vector<core::ClusterObjectVersion> out;
  for (const auto& [cluster, version] : versions) {  // std::map: sorted by name
    if (!version.empty()) out.push_back(core::ClusterObjectVersion{cluster, version, Json()});
  }
  return out;
}

}  // namespace

std::string propagatedVersionPrefix(std::string_view target_kind) {
  return lowerCase(target_kind) + "-";
}

QualifiedName propagatedVersionName(std::string_view target_kind, const QualifiedName& federated) {
  return QualifiedName{federated.ns, propagatedVersionPrefix(target_kind) + federated.name};
}

Json propagatedVersionOwnerReference(const Json& federated_object) {
  return Json{{"apiVersion", stringField(federated_object, "apiVersion")},
              {"kind", stringField(federated_object, "kind")},
              {"name", objectName(federated_object)},
              {"uid", objectUid(federated_object)}};
}

Json newPropagatedVersionObject(const QualifiedName& name, bool namespaced,
                                const Json& owner_reference,
                                const core::PropagatedVersionStatus& status) {
  Json metadata = {{"name", name.name}, {"ownerReferences", Json::array({owner_reference})}};
  if (namespaced && !name.ns.empty()) metadata["namespace"] = name.ns;
  return Json{{"apiVersion", "core.kubefed.io/v1alpha1"},
              {"kind", namespaced ? "PropagatedVersion" : "ClusterPropagatedVersion"},
              {"metadata", std::move(metadata)},
              {"status", status.toJson()}};
}

ClusterVersions versionsForClusters(const core::PropagatedVersionStatus* entry,
                                    const std::string& template_version,
                                    const std::string& overrides_version) {
  ClusterVersions out;
  if (entry == nullptr || entry->template_version != template_version ||
      entry->overrides_version != overrides_version) {
    return out;
  }
  for (const auto& version : entry->cluster_versions) out[version.cluster_name] = version.version;
  return out;
}

VersionsUpdate mergeVersions(const core::PropagatedVersionStatus* entry,
                             const std::string& template_version,
                             const std::string& overrides_version,
                             const std::set<std::string>& selected_clusters,
                             const ClusterVersions& new_versions) {
  ClusterVersions merged = new_versions;
  const bool hashes_unchanged = entry != nullptr && entry->template_version == template_version &&
                                entry->overrides_version == overrides_version;
  if (hashes_unchanged) {
    for (const auto& recorded : entry->cluster_versions) {
      if (selected_clusters.count(recorded.cluster_name) == 0) continue;
      merged.emplace(recorded.cluster_name, recorded.version);  // keeps a newer version
    }
  }
  VersionsUpdate out;
  out.status.template_version = template_version;
  out.status.overrides_version = overrides_version;
  out.status.cluster_versions = toSortedList(merged);
  out.unchanged =
      hashes_unchanged && sameVersions(entry->cluster_versions, out.status.cluster_versions);
  return out;
}

}  // namespace kf::sync
