#pragma once
// What `kubefedctl enable` generates for one target type (spec §1.6, §1.7): the
// FederatedTypeConfig and the CRD of Federated<Kind>. Pure functions of discovery data, the
// target's schema and the directive, so they are tested without a server.
//
// Documents are ordered_json in the field order of KubeFed's Go structs (schema properties
// alphabetical, as Go marshals maps); `-o yaml` prints them with KubeFed's key order instead
// (enableResourcesYaml).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "apis/core/workload_kind.h"
#include "federation/client/discovery.h"
#include "federation/client/list_options.h"

namespace kf {

using OrderedJson = nlohmann::ordered_json;

inline constexpr const char* kDefaultFederatedGroup = "types.kubefed.io";
inline constexpr const char* kDefaultFederatedVersion = "v1beta1";
inline constexpr const char* kKubefedGroup = "core.kubefed.io";
inline constexpr const char* kKubefedApiVersion = "core.kubefed.io/v1beta1";

// The EnableTypeDirective file format (not a served API) and the flags it mirrors.
struct EnableTypeDirective {
  std::string target_name;  // metadata.name: the NAME argument
  std::string target_version;
  std::string federated_group = kDefaultFederatedGroup;
  std::string federated_version = kDefaultFederatedVersion;
};

// Reads a directive document (defaults first, then the file's values).
Result<EnableTypeDirective> directiveFromJson(const Json& document);

// The federated type KubeFed derives for a target.
struct FederatedTypeInfo {
  std::string group;
  std::string version;
  std::string kind;    // Federated<Kind>
  std::string plural;  // federated<plural>
  bool namespaced = false;
  std::string crdName() const { return plural + "." + group; }
};

FederatedTypeInfo federatedTypeFor(const ApiResourceInfo& target,
                                   const EnableTypeDirective& directive);

// Target short names with an "f" prefix: deploy -> fdeploy.
std::vector<std::string> federatedShortNames(const ApiResourceInfo& target);

// The FederatedTypeConfig, without namespace or status.
OrderedJson generateTypeConfig(const ApiResourceInfo& target, const EnableTypeDirective& directive);

// Whether a target schema (an openAPIV3Schema, `spec` already inline) declares
// spec.replicas as integer/int32: only then do federated objects get `retainReplicas`.
bool declaresInt32Replicas(const Json& target_schema);

// The openAPIV3Schema of Federated<Kind>. Without a target schema `template` is not declared
// (KubeFed behaves the same way; the server then prunes templates). With a workload kind
// (beyond KubeFed) the status also declares `workload` and a condition `message`.
OrderedJson federatedValidationSchema(const std::optional<Json>& target_schema,
                                      std::optional<core::WorkloadKind> workload = std::nullopt);

// The apiextensions.k8s.io/v1 CRD of Federated<Kind>. For the built-in workload types
// (core::builtInWorkloadKind) it adds the workload status and printer columns showing it.
OrderedJson generateFederatedCrd(const ApiResourceInfo& target,
                                 const std::optional<Json>& target_schema,
                                 const EnableTypeDirective& directive);

struct EnableResources {
  OrderedJson type_config;
  OrderedJson crd;
};

EnableResources generateEnableResources(const ApiResourceInfo& target,
                                        const std::optional<Json>& target_schema,
                                        const EnableTypeDirective& directive);

// What `kubefedctl enable -o yaml` prints, byte for byte as KubeFed does: "---", the
// FederatedTypeConfig, "---", the CRD, keys sorted as its YAML writer sorts them (go_yaml_order.h).
std::string enableResourcesYaml(const EnableResources& resources);

}  // namespace kf
