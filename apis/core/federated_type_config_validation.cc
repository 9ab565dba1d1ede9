#include <algorithm>

#include "apis/core/validation.h"
#include "apis/meta/ascii.h"
#include "apis/meta/join.h"
#include "apis/meta/name_validation.h"

namespace kf::core {

using meta::ErrorList;
using meta::FieldPath;

namespace {

const std::vector<std::string>& scopes() {
  static const std::vector<std::string> values{std::string(kScopeCluster),
                                               std::string(kScopeNamespaced)};
  return values;
}

const std::vector<std::string>& enabledDisabled() {
  static const std::vector<std::string> values{std::string(kEnabled), std::string(kDisabled)};
  return values;
}

const std::vector<std::string>& controllerStatuses() {
  static const std::vector<std::string> values{std::string(kControllerRunning),
                                               std::string(kControllerNotRunning)};
  return values;
}

// Federated and status types live in a real API group: required, and a domain.
ErrorList validateFederatedApiResource(const ApiResource& resource, const FieldPath& path) {
  ErrorList errors;
  const FieldPath group = path.child("group");
  if (resource.group.empty()) {
    errors.push_back(meta::required(group));
  } else if (resource.group.find('.') == std::string::npos) {
    errors.push_back(meta::invalid(group, meta::BadValue::quoted(resource.group),
                                   "should be a domain with at least one dot"));
  }
  meta::append(errors, validateApiResource(resource, path));
  return errors;
}

// A required name that must also be a DNS-1035 label.
ErrorList validateRequiredLabel(std::string_view value, std::string_view shown,
                                const FieldPath& path) {
  if (value.empty()) return {meta::required(path)};
  const auto messages = meta::dns1035LabelErrors(value);
  if (messages.empty()) return {};
  return {meta::invalid(path, meta::BadValue::quoted(shown), joinWith(messages, ","))};
}

}  // namespace

ErrorList validateFederatedTypeConfig(const FederatedTypeConfig& ftc, bool status_subresource) {
  if (status_subresource) {
    return validateFederatedTypeConfigStatus(ftc.status.value_or(FederatedTypeConfigStatus{}),
                                             FieldPath("status"));
  }
  ErrorList errors = validateFederatedTypeConfigName(ftc);
  meta::append(errors, validateFederatedTypeConfigSpec(ftc.spec, FieldPath("spec")));
  return errors;
}

ErrorList validateFederatedTypeConfigName(const FederatedTypeConfig& ftc) {
  const std::string expected = groupQualifiedName(ftc.spec.target_type);
  if (ftc.name() == expected) return {};
  return {meta::invalid(FieldPath("name"), meta::BadValue::quoted(ftc.name()),
                        "name must be 'TARGET_PLURAL_NAME(.TARGET_GROUP_NAME)'")};
}

ErrorList validateFederatedTypeConfigSpec(const FederatedTypeConfigSpec& spec,
                                          const FieldPath& path) {
  ErrorList errors = validateApiResource(spec.target_type, path.child("targetType"));
  meta::append(errors, meta::validateEnumString(spec.propagation, path.child("propagation"),
                                                enabledDisabled()));
  meta::append(errors,
               validateFederatedApiResource(spec.federated_type, path.child("federatedType")));
  if (spec.status_type) {
    meta::append(errors, validateFederatedApiResource(*spec.status_type, path.child("statusType")));
  }
  if (spec.status_collection) {
    meta::append(errors,
                 meta::validateEnumString(*spec.status_collection, path.child("statusCollection"),
                                          enabledDisabled()));
  }
  return errors;
}

ErrorList validateFederatedTypeConfigStatus(const FederatedTypeConfigStatus& status,
                                            const FieldPath& path) {
  ErrorList errors;
  if (status.observed_generation < 0) {
    errors.push_back(meta::invalid(path.child("observedGeneration"),
                                   meta::BadValue::number(status.observed_generation),
                                   "must be greater than or equal to 0"));
  }
  meta::append(errors,
               meta::validateEnumString(status.propagation_controller,
                                        path.child("propagationController"), controllerStatuses()));
  if (status.status_controller) {
    meta::append(errors,
                 meta::validateEnumString(*status.status_controller, path.child("statusController"),
                                          controllerStatuses()));
  }
  return errors;
}

ErrorList validateApiResource(const ApiResource& resource, const FieldPath& path) {
  ErrorList errors;
  if (!resource.group.empty()) {
    meta::append(errors, meta::validateDns1123Subdomain(resource.group, path.child("group")));
  }
  meta::append(errors,
               validateRequiredLabel(resource.version, resource.version, path.child("version")));
  meta::append(errors,
               validateRequiredLabel(toLower(resource.kind), resource.kind, path.child("kind")));
  meta::append(errors, validateRequiredLabel(resource.plural_name, resource.plural_name,
                                             path.child("pluralName")));
  meta::append(errors, meta::validateEnumString(resource.scope, path.child("scope"), scopes()));
  return errors;
}

}  // namespace kf::core
