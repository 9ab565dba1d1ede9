#include "apis/core/federated_type_config.h"

#include <algorithm>
#include <cctype>

namespace kf::core {

using meta::FieldPath;
using meta::ObjectReader;

Result<ApiResource> ApiResource::fromJson(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  ApiResource out;
  KF_TRY(group, reader.string("group"));
  KF_TRY(version, reader.string("version"));
  KF_TRY(kind, reader.string("kind"));
  KF_TRY(plural_name, reader.string("pluralName"));
  KF_TRY(scope, reader.string("scope"));
  out.group = std::move(group);
  out.version = std::move(version);
  out.kind = std::move(kind);
  out.plural_name = std::move(plural_name);
  out.scope = std::move(scope);
  out.extra = reader.rest();
  return out;
}

Json ApiResource::toJson() const {
  Json out = meta::baseObject(extra);
  meta::putIfNotEmpty(out, "group", group);
  out["version"] = version;
  out["kind"] = kind;
  out["pluralName"] = plural_name;
  out["scope"] = scope;
  return out;
}

Result<FederatedTypeConfigSpec> FederatedTypeConfigSpec::fromJson(const Json& json,
                                                                  const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  FederatedTypeConfigSpec out;
  if (const Json* target = reader.plainValue("targetType")) {
    KF_TRY(value, ApiResource::fromJson(*target, reader.path("targetType")));
    out.target_type = std::move(value);
  }
  KF_TRY(propagation, reader.string("propagation"));
  out.propagation = std::move(propagation);
  if (const Json* federated = reader.plainValue("federatedType")) {
    KF_TRY(value, ApiResource::fromJson(*federated, reader.path("federatedType")));
    out.federated_type = std::move(value);
  }
  if (const Json* status_type = reader.optValue("statusType")) {
    KF_TRY(value, ApiResource::fromJson(*status_type, reader.path("statusType")));
    out.status_type = std::move(value);
  }
  KF_TRY(status_collection, reader.optString("statusCollection"));
  out.status_collection = std::move(status_collection);
  out.extra = reader.rest();
  return out;
}

Json FederatedTypeConfigSpec::toJson() const {
  Json out = meta::baseObject(extra);
  out["targetType"] = target_type.toJson();
  out["propagation"] = propagation;
  out["federatedType"] = federated_type.toJson();
  if (status_type) out["statusType"] = status_type->toJson();
  meta::putIfSet(out, "statusCollection", status_collection);
  return out;
}

Result<FederatedTypeConfigStatus> FederatedTypeConfigStatus::fromJson(const Json& json,
                                                                      const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  FederatedTypeConfigStatus out;
  KF_TRY(generation, reader.int64("observedGeneration"));
  KF_TRY(propagation, reader.string("propagationController"));
  KF_TRY(status_controller, reader.optString("statusController"));
  out.observed_generation = generation;
  out.propagation_controller = std::move(propagation);
  out.status_controller = std::move(status_controller);
  out.extra = reader.rest();
  return out;
}

Json FederatedTypeConfigStatus::toJson() const {
  Json out = meta::baseObject(extra);
  out["observedGeneration"] = observed_generation;
  out["propagationController"] = propagation_controller;
  meta::putIfSet(out, "statusController", status_controller);
  return out;
}

Result<FederatedTypeConfig> FederatedTypeConfig::fromJson(const Json& json) {
  KF_TRY(reader, ObjectReader::open(json, FieldPath()));
  FederatedTypeConfig out;
  KF_TRY(header, meta::readObjectHeader(reader));
  out.header = std::move(header);
  if (const Json* spec = reader.plainValue("spec")) {
    KF_TRY(value, FederatedTypeConfigSpec::fromJson(*spec, FieldPath("spec")));
    out.spec = std::move(value);
  }
  if (const Json* status = reader.optValue("status")) {
    KF_TRY(value, FederatedTypeConfigStatus::fromJson(*status, FieldPath("status")));
    out.status = std::move(value);
  }
  out.extra = reader.rest();
  return out;
}

Json FederatedTypeConfig::toJson() const {
  Json out = meta::baseObject(extra);
  meta::writeObjectHeader(header, out);
  out["spec"] = spec.toJson();
  if (status) out["status"] = status->toJson();
  return out;
}

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

void setIfEmpty(std::string& field, const std::string& value) {
  if (field.empty()) field = value;
}

}  // namespace

std::string pluralName(std::string_view kind) {
  std::string lower(kind);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::string_view suffix : {"s", "x", "ch", "sh", "z", "o"}) {
    if (endsWith(lower, suffix)) return lower + "es";
  }
  if (endsWith(lower, "y")) return lower.substr(0, lower.size() - 1) + "ies";
  return lower + "s";
}

std::string groupQualifiedName(const ApiResource& resource) {
  if (resource.group.empty()) return resource.plural_name;
  return resource.plural_name + "." + resource.group;
}

void setFederatedTypeConfigDefaults(FederatedTypeConfig& ftc) {
  const std::string name = ftc.name();
  const auto dot = name.find('.');
  setIfEmpty(ftc.spec.target_type.plural_name, name.substr(0, dot));
  if (dot != std::string::npos) setIfEmpty(ftc.spec.target_type.group, name.substr(dot + 1));
  setIfEmpty(ftc.spec.federated_type.plural_name, pluralName(ftc.spec.federated_type.kind));
  if (ftc.spec.status_type) {
    ApiResource& status_type = *ftc.spec.status_type;
    setIfEmpty(status_type.plural_name, pluralName(status_type.kind));
    setIfEmpty(status_type.group, ftc.spec.federated_type.group);
    setIfEmpty(status_type.version, ftc.spec.federated_type.version);
  }
}

bool federatedTypeNamespaced(const FederatedTypeConfig& ftc) {
  return ftc.spec.target_type.namespaced() || ftc.name() == kNamespacesFtcName;
}

}  // namespace kf::core
