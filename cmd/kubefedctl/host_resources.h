#pragma once
// The host-cluster resources enable and disable work on.

#include "federation/client/list_options.h"

namespace kf::kubefedctl {

inline const GroupVersionResource kCrds{"apiextensions.k8s.io", "v1", "customresourcedefinitions",
                                        false};
inline const GroupVersionResource kTypeConfigs{"core.kubefed.io", "v1beta1", "federatedtypeconfigs",
                                               true};
inline const GroupVersionResource kNamespaces{"", "v1", "namespaces", false};

}  // namespace kf::kubefedctl
