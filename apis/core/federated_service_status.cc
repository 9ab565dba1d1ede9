#include "apis/core/federated_service_status.h"

namespace kf::core {

using meta::FieldPath;
using meta::ObjectReader;

namespace {

Result<ClusterServiceStatus> readClusterServiceStatus(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KF_TRY(cluster_name, reader.string("clusterName"));
  ClusterServiceStatus out{std::move(cluster_name), Json::object(), Json()};
  if (const Json* status = reader.plainValue("status")) {
    if (!status->is_object()) return meta::decodeError(reader.path("status"), "expected object");
    out.status = *status;
  }
  out.extra = reader.rest();
  return out;
}

Json writeClusterServiceStatus(const ClusterServiceStatus& entry) {
  Json out = meta::baseObject(entry.extra);
  out["clusterName"] = entry.cluster_name;
  out["status"] = entry.status;
  return out;
}

}  // namespace

Result<FederatedServiceStatus> FederatedServiceStatus::fromJson(const Json& json) {
  KF_TRY(reader, ObjectReader::open(json, FieldPath()));
  FederatedServiceStatus out;
  KF_TRY(header, meta::readObjectHeader(reader));
  out.header = std::move(header);
  if (const Json* entries = reader.plainValue("clusterStatus")) {
    KF_TRY(value, meta::readArray<ClusterServiceStatus>(*entries, reader.path("clusterStatus"),
                                                        readClusterServiceStatus));
    out.cluster_status = std::move(value);
  }
  out.extra = reader.rest();
  return out;
}

Json FederatedServiceStatus::toJson() const {
  Json out = meta::baseObject(extra);
  meta::writeObjectHeader(header, out);
  if (!cluster_status.empty()) {
    Json entries = Json::array();
    for (const auto& entry : cluster_status) entries.push_back(writeClusterServiceStatus(entry));
    out["clusterStatus"] = std::move(entries);
  }
  return out;
}

}  // namespace kf::core
