#include "apis/core/kubefed_cluster.h"

namespace kf::core {

using meta::FieldPath;
using meta::ObjectReader;

namespace {

Result<LocalSecretReference> readSecretRef(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KF_TRY(name, reader.string("name"));
  return LocalSecretReference{std::move(name), reader.rest()};
}

Json writeSecretRef(const LocalSecretReference& ref) {
  Json out = meta::baseObject(ref.extra);
  out["name"] = ref.name;
  return out;
}

}  // namespace

Result<KubeFedClusterSpec> KubeFedClusterSpec::fromJson(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KubeFedClusterSpec out;
  KF_TRY(endpoint, reader.string("apiEndpoint"));
  KF_TRY(ca_bundle, reader.string("caBundle"));
  out.api_endpoint = std::move(endpoint);
  out.ca_bundle = std::move(ca_bundle);
  if (const Json* ref = reader.plainValue("secretRef")) {
    KF_TRY(value, readSecretRef(*ref, reader.path("secretRef")));
    out.secret_ref = std::move(value);
  }
  if (const Json* tls = reader.plainValue("disabledTLSValidations")) {
    KF_TRY(value, meta::readStringArray(*tls, reader.path("disabledTLSValidations")));
    out.disabled_tls_validations = std::move(value);
  }
  KF_TRY(proxy_url, reader.string("proxyURL"));
  out.proxy_url = std::move(proxy_url);
  out.extra = reader.rest();
  return out;
}

Json KubeFedClusterSpec::toJson() const {
  Json out = meta::baseObject(extra);
  out["apiEndpoint"] = api_endpoint;
  meta::putIfNotEmpty(out, "caBundle", ca_bundle);
  out["secretRef"] = writeSecretRef(secret_ref);
  if (!disabled_tls_validations.empty()) out["disabledTLSValidations"] = disabled_tls_validations;
  meta::putIfNotEmpty(out, "proxyURL", proxy_url);
  return out;
}

Result<ClusterCondition> ClusterCondition::fromJson(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  ClusterCondition out;
  KF_TRY(type, reader.string("type"));
  KF_TRY(status, reader.string("status"));
  KF_TRY(probe, reader.string("lastProbeTime"));
  KF_TRY(transition, reader.optString("lastTransitionTime"));
  KF_TRY(reason, reader.optString("reason"));
  KF_TRY(message, reader.optString("message"));
  out.type = std::move(type);
  out.status = std::move(status);
  out.last_probe_time = std::move(probe);
  out.last_transition_time = std::move(transition);
  out.reason = std::move(reason);
  out.message = std::move(message);
  out.extra = reader.rest();
  return out;
}

Json ClusterCondition::toJson() const {
  Json out = meta::baseObject(extra);
  out["type"] = type;
  out["status"] = status;
  // metav1.Time is not omitempty here: the zero time marshals as null.
  out["lastProbeTime"] = last_probe_time.empty() ? Json(nullptr) : Json(last_probe_time);
  meta::putIfSet(out, "lastTransitionTime", last_transition_time);
  meta::putIfSet(out, "reason", reason);
  meta::putIfSet(out, "message", message);
  return out;
}

Result<KubeFedClusterStatus> KubeFedClusterStatus::fromJson(const Json& json,
                                                            const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KubeFedClusterStatus out;
  if (const Json* conditions = reader.plainValue("conditions")) {
    KF_TRY(value, meta::readArray<ClusterCondition>(*conditions, reader.path("conditions"),
                                                    ClusterCondition::fromJson));
    out.conditions = std::move(value);
  }
  if (const Json* zones = reader.plainValue("zones")) {
    KF_TRY(value, meta::readStringArray(*zones, reader.path("zones")));
    out.zones = std::move(value);
  }
  KF_TRY(region, reader.optString("region"));
  out.region = std::move(region);
  out.extra = reader.rest();
  return out;
}

Json KubeFedClusterStatus::toJson() const {
  Json out = meta::baseObject(extra);
  Json conditions_json = Json::array();
  for (const auto& condition : conditions) conditions_json.push_back(condition.toJson());
  out["conditions"] = std::move(conditions_json);
  if (!zones.empty()) out["zones"] = zones;
  meta::putIfSet(out, "region", region);
  return out;
}

Result<KubeFedCluster> KubeFedCluster::fromJson(const Json& json) {
  KF_TRY(reader, ObjectReader::open(json, FieldPath()));
  KubeFedCluster out;
  KF_TRY(header, meta::readObjectHeader(reader));
  out.header = std::move(header);
  if (const Json* spec = reader.plainValue("spec")) {
    KF_TRY(value, KubeFedClusterSpec::fromJson(*spec, FieldPath("spec")));
    out.spec = std::move(value);
  }
  if (const Json* status = reader.optValue("status")) {
    KF_TRY(value, KubeFedClusterStatus::fromJson(*status, FieldPath("status")));
    out.status = std::move(value);
  }
  out.extra = reader.rest();
  return out;
}

Json KubeFedCluster::toJson() const {
  Json out = meta::baseObject(extra);
  meta::writeObjectHeader(header, out);
  out["spec"] = spec.toJson();
  if (status) out["status"] = status->toJson();
  return out;
}

}  // namespace kf::core
