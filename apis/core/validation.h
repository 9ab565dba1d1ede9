#pragma once
// Admission rules of the KubeFed webhook for its own types (spec §1.1-1.3). Messages follow
// Kubernetes field.ErrorList; callers aggregate them with meta::aggregate().

#include <string_view>

#include "apis/core/federated_type_config.h"
#include "apis/core/kubefed_cluster.h"
#include "apis/core/kubefed_config.h"
#include "apis/meta/field_errors.h"

namespace kf::core {

// status_subresource: the request targets a subresource; then only status is checked.
meta::ErrorList validateFederatedTypeConfig(const FederatedTypeConfig& ftc,
                                            bool status_subresource);
meta::ErrorList validateFederatedTypeConfigName(const FederatedTypeConfig& ftc);
meta::ErrorList validateFederatedTypeConfigSpec(const FederatedTypeConfigSpec& spec,
                                                const meta::FieldPath& path);
meta::ErrorList validateFederatedTypeConfigStatus(const FederatedTypeConfigStatus& status,
                                                  const meta::FieldPath& path);
meta::ErrorList validateApiResource(const ApiResource& resource, const meta::FieldPath& path);

// status_subresource: the request's subresource is "status"; then only status is checked.
meta::ErrorList validateKubeFedCluster(const KubeFedCluster& cluster, bool status_subresource);
meta::ErrorList validateKubeFedClusterSpec(const KubeFedClusterSpec& spec,
                                           const meta::FieldPath& path);
meta::ErrorList validateKubeFedClusterStatus(const KubeFedClusterStatus& status,
                                             const meta::FieldPath& path);
meta::ErrorList validateApiEndpoint(std::string_view endpoint, const meta::FieldPath& path);
meta::ErrorList validateLocalSecretReference(const LocalSecretReference& ref,
                                             const meta::FieldPath& path);
meta::ErrorList validateDisabledTlsValidations(const std::vector<std::string>& validations,
                                               const meta::FieldPath& path);
meta::ErrorList validateProxyUrl(std::string_view proxy_url, const meta::FieldPath& path);
meta::ErrorList validateClusterCondition(const ClusterCondition& condition,
                                         const meta::FieldPath& path);

// old_config: the stored object on UPDATE (scope is immutable), nullptr on CREATE.
meta::ErrorList validateKubeFedConfig(const KubeFedConfig& config, const KubeFedConfig* old_config);

}  // namespace kf::core
