#pragma once
// The API resources the integration and e2e tests read and write, named once.

#include <string>
#include <vector>

#include "federation/client/list_options.h"

namespace kf::integration {

// KubeFed v0.8.1's default types, as its chart enables them; ingresses from networking.k8s.io/v1.
inline const std::vector<std::string> kKubefedDefaultTypes = {
    "clusterroles.rbac.authorization.k8s.io",
    "configmaps",
    "deployments.apps",
    "ingresses.networking.k8s.io",
    "jobs.batch",
    "namespaces",
    "replicasets.apps",
    "secrets",
    "serviceaccounts",
    "services"};

inline const GroupVersionResource kNamespaces{"", "v1", "namespaces", false};
inline const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};
inline const GroupVersionResource kSecrets{"", "v1", "secrets", true};
inline const GroupVersionResource kServiceAccounts{"", "v1", "serviceaccounts", true};
inline const GroupVersionResource kEvents{"", "v1", "events", true};
// The fixture runs the API servers with the watch cache off for podtemplates only, so that a
// watch from a compacted resourceVersion reaches etcd and fails with 410 Gone.
inline const GroupVersionResource kPodTemplates{"", "v1", "podtemplates", true};
inline const GroupVersionResource kDeployments{"apps", "v1", "deployments", true};
inline const GroupVersionResource kLeases{"coordination.k8s.io", "v1", "leases", true};
inline const GroupVersionResource kClusterRoles{"rbac.authorization.k8s.io", "v1", "clusterroles",
                                                false};
inline const GroupVersionResource kClusterRoleBindings{"rbac.authorization.k8s.io", "v1",
                                                       "clusterrolebindings", false};
inline const GroupVersionResource kRoles{"rbac.authorization.k8s.io", "v1", "roles", true};
inline const GroupVersionResource kRoleBindings{"rbac.authorization.k8s.io", "v1", "rolebindings",
                                                true};
inline const GroupVersionResource kCrds{"apiextensions.k8s.io", "v1", "customresourcedefinitions",
                                        false};
inline const GroupVersionResource kTypeConfigs{"core.kubefed.io", "v1beta1", "federatedtypeconfigs",
                                               true};
inline const GroupVersionResource kKubeFedClusters{"core.kubefed.io", "v1beta1", "kubefedclusters",
                                                   true};
inline const GroupVersionResource kKubeFedConfigs{"core.kubefed.io", "v1beta1", "kubefedconfigs",
                                                  true};
inline const GroupVersionResource kPropagatedVersions{"core.kubefed.io", "v1alpha1",
                                                      "propagatedversions", true};
inline const GroupVersionResource kFederatedConfigMaps{"types.kubefed.io", "v1beta1",
                                                       "federatedconfigmaps", true};
inline const GroupVersionResource kFederatedNamespaces{"types.kubefed.io", "v1beta1",
                                                       "federatednamespaces", true};
inline const GroupVersionResource kFederatedDeployments{"types.kubefed.io", "v1beta1",
                                                        "federateddeployments", true};

// A complete KubeFedConfig spec, KubeFed's defaults as its webhook writes them, with `overrides`
// merged in (a JSON merge patch). The controller manager, like KubeFed's, refuses a stored
// config with a section missing, and no webhook runs in the tests to complete one.
inline Json kubeFedConfigSpec(const Json& overrides = Json::object()) {
  Json spec = Json::parse(R"({
    "scope": "Cluster",
    "controllerDuration": {"availableDelay": "20s", "unavailableDelay": "60s"},
    "leaderElect": {"leaseDuration": "15s", "renewDeadline": "10s", "retryPeriod": "5s",
                    "resourceLock": "configmaps"},
    "featureGates": [{"name": "PushReconciler", "configuration": "Enabled"},
                     {"name": "RawResourceStatusCollection", "configuration": "Disabled"},
                     {"name": "SchedulerPreferences", "configuration": "Enabled"}],
    "clusterHealthCheck": {"period": "10s", "failureThreshold": 3, "successThreshold": 1,
                           "timeout": "3s"},
    "syncController": {"maxConcurrentReconciles": 1, "adoptResources": "Enabled"},
    "statusController": {"maxConcurrentReconciles": 1}})");
  spec.merge_patch(overrides);
  return spec;
}

}  // namespace kf::integration
