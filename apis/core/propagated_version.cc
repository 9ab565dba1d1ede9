#include "apis/core/propagated_version.h"

namespace kf::core {

using meta::FieldPath;
using meta::ObjectReader;

namespace {

Result<ClusterObjectVersion> readClusterVersion(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KF_TRY(cluster_name, reader.string("clusterName"));
  KF_TRY(version, reader.string("version"));
  return ClusterObjectVersion{std::move(cluster_name), std::move(version), reader.rest()};
}

Json writeClusterVersion(const ClusterObjectVersion& entry) {
  Json out = meta::baseObject(entry.extra);
  out["clusterName"] = entry.cluster_name;
  out["version"] = entry.version;
  return out;
}

}  // namespace

Result<PropagatedVersionStatus> PropagatedVersionStatus::fromJson(const Json& json,
                                                                  const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  PropagatedVersionStatus out;
  KF_TRY(template_version, reader.string("templateVersion"));
  KF_TRY(overrides_version, reader.string("overridesVersion"));
  out.template_version = std::move(template_version);
  out.overrides_version = std::move(overrides_version);
  if (const Json* versions = reader.plainValue("clusterVersions")) {
    KF_TRY(value, meta::readArray<ClusterObjectVersion>(*versions, reader.path("clusterVersions"),
                                                        readClusterVersion));
    out.cluster_versions = std::move(value);
  }
  out.extra = reader.rest();
  return out;
}

Json PropagatedVersionStatus::toJson() const {
  Json out = meta::baseObject(extra);
  out["templateVersion"] = template_version;
  out["overridesVersion"] = overrides_version;
  if (!cluster_versions.empty()) {
    Json versions = Json::array();
    for (const auto& entry : cluster_versions) versions.push_back(writeClusterVersion(entry));
    out["clusterVersions"] = std::move(versions);
  }
  return out;
}

Result<PropagatedVersion> PropagatedVersion::fromJson(const Json& json) {
  KF_TRY(reader, ObjectReader::open(json, FieldPath()));
  PropagatedVersion out;
  KF_TRY(header, meta::readObjectHeader(reader));
  out.header = std::move(header);
  if (const Json* status = reader.optValue("status")) {
    KF_TRY(value, PropagatedVersionStatus::fromJson(*status, FieldPath("status")));
    out.status = std::move(value);
  }
  out.extra = reader.rest();
  return out;
}

Json PropagatedVersion::toJson() const {
  Json out = meta::baseObject(extra);
  meta::writeObjectHeader(header, out);
  if (status) out["status"] = status->toJson();
  return out;
}

}  // namespace kf::core
