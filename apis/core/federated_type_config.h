#pragma once
// core.kubefed.io/v1beta1 FederatedTypeConfig: one per federated target type (spec §1.1).

#include <optional>
#include <string>

#include "apis/meta/object_header.h"

namespace kf::core {

inline constexpr std::string_view kScopeCluster = "Cluster";
inline constexpr std::string_view kScopeNamespaced = "Namespaced";
inline constexpr std::string_view kEnabled = "Enabled";
inline constexpr std::string_view kDisabled = "Disabled";
inline constexpr std::string_view kControllerRunning = "Running";
inline constexpr std::string_view kControllerNotRunning = "NotRunning";
// The FTC whose federated type is namespaced although its target is cluster-scoped.
inline constexpr std::string_view kNamespacesFtcName = "namespaces";

struct ApiResource {
  std::string group;  // omitempty; "" is the core group
  std::string version;
  std::string kind;
  std::string plural_name;
  std::string scope;  // "Cluster" | "Namespaced"
  Json extra;

  bool namespaced() const { return scope == kScopeNamespaced; }
  std::string apiVersion() const { return group.empty() ? version : group + "/" + version; }

  static Result<ApiResource> fromJson(const Json& json, const meta::FieldPath& path);
  Json toJson() const;
};

struct FederatedTypeConfigSpec {
  ApiResource target_type;
  std::string propagation;  // "Enabled" | "Disabled"
  ApiResource federated_type;
  std::optional<ApiResource> status_type;
  std::optional<std::string> status_collection;  // "Enabled" | "Disabled"
  Json extra;

  static Result<FederatedTypeConfigSpec> fromJson(const Json& json, const meta::FieldPath& path);
  Json toJson() const;
};

struct FederatedTypeConfigStatus {
  std::int64_t observed_generation = 0;
  std::string propagation_controller;  // "Running" | "NotRunning"
  std::optional<std::string> status_controller;
  Json extra;

  static Result<FederatedTypeConfigStatus> fromJson(const Json& json, const meta::FieldPath& path);
  Json toJson() const;
};

struct FederatedTypeConfig {
  meta::ObjectHeader header;
  FederatedTypeConfigSpec spec;
  std::optional<FederatedTypeConfigStatus> status;
  Json extra;

  std::string name() const { return header.name(); }

  static Result<FederatedTypeConfig> fromJson(const Json& json);
  Json toJson() const;
};

// Lower-cased kind made plural. QUIRK (§1.1): every trailing "y" becomes "ies", so "Gateway"
// gives "gatewaies"; generated federated CRD names depend on it.
std::string pluralName(std::string_view kind);

// "plural" for the core group, else "plural.group"; an FTC's name must equal this for its target.
std::string groupQualifiedName(const ApiResource& resource);

// In-memory defaults KubeFed applies after reading an FTC: only empty fields are filled.
void setFederatedTypeConfigDefaults(FederatedTypeConfig& ftc);

// The federated type lives in namespaces when its target does, and for FederatedNamespace,
// which sits in the namespace it describes.
bool federatedTypeNamespaced(const FederatedTypeConfig& ftc);

}  // namespace kf::core
