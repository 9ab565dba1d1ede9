#pragma once
// FederatedTypeConfigs for FTC controller tests, shaped like the ones `kubefedctl enable` and the
// Helm chart install: generation 2, in kube-federation-system, defaults applied.

#include <cstdint>
#include <string>

#include "apis/core/federated_type_config.h"

namespace kf::test {

inline constexpr char kFtcNamespace[] = "kube-federation-system";

inline core::FederatedTypeConfig makeFtc(const std::string& name, const std::string& target_kind,
                                         const std::string& target_scope,
                                         const std::string& propagation) {
  core::FederatedTypeConfig ftc;
  ftc.header.api_version = "core.kubefed.io/v1beta1";
  ftc.header.kind = "FederatedTypeConfig";
  ftc.header.metadata = {{"name", name}, {"namespace", kFtcNamespace}, {"generation", 2}};
  ftc.spec.target_type = {
      .version = "v1", .kind = target_kind, .plural_name = name, .scope = target_scope};
  ftc.spec.propagation = propagation;
  ftc.spec.federated_type = {.group = "types.kubefed.io",
                             .version = "v1beta1",
                             .kind = "Federated" + target_kind,
                             .plural_name = "federated" + name,
                             .scope = "Namespaced"};
  core::setFederatedTypeConfigDefaults(ftc);
  return ftc;
}

inline core::FederatedTypeConfig configMapsFtc(const std::string& propagation = "Enabled") {
  return makeFtc("configmaps", "ConfigMap", "Namespaced", propagation);
}

inline core::FederatedTypeConfig namespacesFtc(const std::string& propagation = "Enabled") {
  return makeFtc("namespaces", "Namespace", "Cluster", propagation);
}

inline core::FederatedTypeConfig clusterRolesFtc(const std::string& propagation = "Enabled") {
  core::FederatedTypeConfig ftc =
      makeFtc("clusterroles.rbac.authorization.k8s.io", "ClusterRole", "Cluster", propagation);
  ftc.spec.target_type.group = "rbac.authorization.k8s.io";
  return ftc;
}

inline core::FederatedTypeConfig servicesFtc(const std::string& status_collection,
                                             bool status_type) {
  core::FederatedTypeConfig ftc = makeFtc("services", "Service", "Namespaced", "Enabled");
  ftc.spec.status_collection = status_collection;
  if (status_type) {
    ftc.spec.status_type = core::ApiResource{.group = "core.kubefed.io",
                                             .version = "v1alpha1",
                                             .kind = "FederatedServiceStatus",
                                             .plural_name = "federatedservicestatuses",
                                             .scope = "Namespaced"};
  }
  return ftc;
}

inline core::FederatedTypeConfig withStatus(core::FederatedTypeConfig ftc, std::int64_t observed,
                                            const std::string& propagation,
                                            const std::string& status) {
  ftc.status = core::FederatedTypeConfigStatus{.observed_generation = observed,
                                               .propagation_controller = propagation,
                                               .status_controller = status};
  return ftc;
}

}  // namespace kf::test
