#include "apis/federated/federated_resource.h"

namespace kf::federated {

using meta::FieldPath;
using meta::ObjectReader;

namespace {

// spec, or nullptr when the object has none. Anything but an object is an error.
Result<const Json*> specOf(const Json& object) {
  if (!object.is_object()) return meta::decodeError(FieldPath(), "expected object");
  auto it = object.find("spec");
  if (it == object.end() || it->is_null()) return static_cast<const Json*>(nullptr);
  if (!it->is_object()) return meta::decodeError(FieldPath("spec"), "expected object");
  return &*it;
}

// The member `key` of `parent`, or nullptr when absent or null.
const Json* member(const Json& parent, const char* key) {
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) return nullptr;
  return &*it;
}

Result<std::string> clusterName(const Json& reference, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(reference, path));
  return reader.string("name");
}

Result<ClusterOverride> readClusterOverride(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  ClusterOverride out;
  KF_TRY(op, reader.string("op"));
  KF_TRY(patch_path, reader.string("path"));
  out.op = std::move(op);
  out.path = std::move(patch_path);
  if (const Json* value = reader.optValue("value")) out.value = *value;
  return out;
}

Result<ClusterOverrides> readOverrideEntry(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  ClusterOverrides out;
  KF_TRY(name, reader.string("clusterName"));
  out.cluster_name = std::move(name);
  if (const Json* list = reader.plainValue("clusterOverrides")) {
    KF_TRY(value, meta::readArray<ClusterOverride>(*list, reader.path("clusterOverrides"),
                                                   readClusterOverride));
    out.cluster_overrides = std::move(value);
  }
  return out;
}

}  // namespace

Result<std::optional<Json>> readTemplate(const Json& object) {
  KF_TRY(spec, specOf(object));
  if (spec == nullptr) return std::optional<Json>();
  const Json* value = member(*spec, "template");
  if (value == nullptr) return std::optional<Json>();
  if (!value->is_object()) return meta::decodeError(FieldPath("spec.template"), "expected object");
  return std::optional<Json>(*value);
}

Result<Placement> readPlacement(const Json& object) {
  KF_TRY(spec, specOf(object));
  Placement out;
  const Json* placement = spec ? member(*spec, "placement") : nullptr;
  if (placement == nullptr) return out;
  const FieldPath path("spec.placement");
  if (!placement->is_object()) return meta::decodeError(path, "expected object");
  if (const Json* clusters = member(*placement, "clusters")) {
    KF_TRY(names, meta::readArray<std::string>(*clusters, path.child("clusters"), clusterName));
    out.clusters = std::move(names);
  }
  if (const Json* selector = member(*placement, "clusterSelector")) {
    KF_TRY(value, meta::readLabelSelector(*selector, path.child("clusterSelector")));
    out.cluster_selector = std::move(value);
  }
  return out;
}

Result<std::vector<ClusterOverrides>> readOverrides(const Json& object) {
  KF_TRY(spec, specOf(object));
  const Json* overrides = spec ? member(*spec, "overrides") : nullptr;
  if (overrides == nullptr) return std::vector<ClusterOverrides>();
  return meta::readArray<ClusterOverrides>(*overrides, FieldPath("spec.overrides"),
                                           readOverrideEntry);
}

Result<bool> readRetainReplicas(const Json& object) {
  KF_TRY(spec, specOf(object));
  const Json* retain = spec ? member(*spec, "retainReplicas") : nullptr;
  if (retain == nullptr) return false;
  if (!retain->is_boolean()) {
    return meta::decodeError(FieldPath("spec.retainReplicas"), "expected boolean");
  }
  return retain->get<bool>();
}

Result<FederatedSpec> readFederatedSpec(const Json& object) {
  FederatedSpec out;
  KF_TRY(template_json, readTemplate(object));
  KF_TRY(placement, readPlacement(object));
  KF_TRY(overrides, readOverrides(object));
  KF_TRY(retain, readRetainReplicas(object));
  out.template_json = std::move(template_json);
  out.placement = std::move(placement);
  out.overrides = std::move(overrides);
  out.retain_replicas = retain;
  return out;
}

}  // namespace kf::federated
