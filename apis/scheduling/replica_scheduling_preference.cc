#include "apis/scheduling/replica_scheduling_preference.h"

namespace kf::scheduling {

using meta::FieldPath;
using meta::ObjectReader;

namespace {

Result<ClusterPreferences> readPreferences(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KF_TRY(min_replicas, reader.int64("minReplicas"));
  KF_TRY(max_replicas, reader.optInt64("maxReplicas"));
  KF_TRY(weight, reader.int64("weight"));
  return ClusterPreferences{min_replicas, max_replicas, weight, reader.rest()};
}

Json writePreferences(const ClusterPreferences& preferences) {
  Json out = meta::baseObject(preferences.extra);
  meta::putIfNonZero(out, "minReplicas", preferences.min_replicas);
  meta::putIfSet(out, "maxReplicas", preferences.max_replicas);
  meta::putIfNonZero(out, "weight", preferences.weight);
  return out;
}

Result<std::map<std::string, ClusterPreferences>> readClusters(const Json& json,
                                                               const FieldPath& path) {
  if (!json.is_object()) return meta::decodeError(path, "expected object");
  std::map<std::string, ClusterPreferences> out;
  for (const auto& [name, value] : json.items()) {
    // A null entry decodes to the zero preferences in Go.
    if (value.is_null()) {
      out.emplace(name, ClusterPreferences{});
      continue;
    }
    KF_TRY(preferences, readPreferences(value, path.key(name)));
    out.emplace(name, std::move(preferences));
  }
  return out;
}

}  // namespace

Result<ReplicaSchedulingPreferenceSpec> ReplicaSchedulingPreferenceSpec::fromJson(
    const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  ReplicaSchedulingPreferenceSpec out;
  KF_TRY(target_kind, reader.string("targetKind"));
  KF_TRY(total, reader.int32("totalReplicas"));
  KF_TRY(rebalance, reader.boolean("rebalance"));
  KF_TRY(intersect, reader.boolean("intersectWithClusterSelector"));
  out.target_kind = std::move(target_kind);
  out.total_replicas = total;
  out.rebalance = rebalance;
  out.intersect_with_cluster_selector = intersect;
  if (const Json* clusters = reader.plainValue("clusters")) {
    KF_TRY(value, readClusters(*clusters, reader.path("clusters")));
    out.clusters = std::move(value);
  }
  out.extra = reader.rest();
  return out;
}

Json ReplicaSchedulingPreferenceSpec::toJson() const {
  Json out = meta::baseObject(extra);
  out["targetKind"] = target_kind;
  out["totalReplicas"] = total_replicas;
  meta::putIfTrue(out, "rebalance", rebalance);
  if (!clusters.empty()) {
    Json map = Json::object();
    for (const auto& [name, preferences] : clusters) map[name] = writePreferences(preferences);
    out["clusters"] = std::move(map);
  }
  meta::putIfTrue(out, "intersectWithClusterSelector", intersect_with_cluster_selector);
  return out;
}

Result<ReplicaSchedulingPreference> ReplicaSchedulingPreference::fromJson(const Json& json) {
  KF_TRY(reader, ObjectReader::open(json, FieldPath()));
  ReplicaSchedulingPreference out;
  KF_TRY(header, meta::readObjectHeader(reader));
  out.header = std::move(header);
  if (const Json* spec = reader.plainValue("spec")) {
    KF_TRY(value, ReplicaSchedulingPreferenceSpec::fromJson(*spec, FieldPath("spec")));
    out.spec = std::move(value);
  }
  if (const Json* status = reader.optValue("status")) out.status = *status;
  out.extra = reader.rest();
  return out;
}

Json ReplicaSchedulingPreference::toJson() const {
  Json out = meta::baseObject(extra);
  meta::writeObjectHeader(header, out);
  out["spec"] = spec.toJson();
  if (!status.is_null()) out["status"] = status;
  return out;
}

}  // namespace kf::scheduling
