#pragma once
// The FederatedConfigMap type the forecast tests plan for, namespace-scoped so that placement
// needs no FederatedNamespace.

#include "sync/controller/sync_context.h"

namespace kf::sync {

inline SyncTypeInfo forecastConfigMapType() {
  SyncTypeInfo type;
  type.target_type.kind = "ConfigMap";
  type.target_type.version = "v1";
  type.target_type.plural_name = "configmaps";
  type.target_type.scope = "Namespaced";
  type.federated_type.kind = "FederatedConfigMap";
  type.federated_type.group = "types.kubefed.io";
  type.federated_type.version = "v1beta1";
  type.federated_type.plural_name = "federatedconfigmaps";
  type.federated_type.scope = "Namespaced";
  type.target_resource = {"", "v1", "configmaps", true};
  type.federated_resource = {"types.kubefed.io", "v1beta1", "federatedconfigmaps", true};
  type.namespace_scoped_control_plane = true;
  return type;
}

}  // namespace kf::sync
