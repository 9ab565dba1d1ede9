#pragma once
// Field retention on update (spec §2.5.5): before an update, the desired object takes the values
// that member clusters own, so that KubeFed neither fights their controllers nor is rejected:
//   * always metadata.resourceVersion, metadata.finalizers and metadata.annotations (overrides,
//     applied afterwards, may still change them);
//   * Service: spec.healthCheckNodePort (> 0), spec.clusterIP (non-empty), spec.clusterIPs
//     (non-empty) and each port's nodePort when a cluster port has the same name, protocol and
//     port. QUIRK: a template port without protocol never matches the cluster's defaulted "TCP";
//     and when the cluster has ports but the desired object has none, it gets `ports: []`;
//   * ServiceAccount: the cluster's secrets when the desired object has none;
//   * any other kind: the cluster's spec.replicas when the federated object has
//     spec.retainReplicas: true.
// A field of an unexpected type fails (status FieldRetentionFailed).

#include <string_view>

#include "apis/meta/json_reader.h"

namespace kf::sync {

// `target_kind` is the FederatedTypeConfig's target kind; `federated_object` is only read for
// spec.retainReplicas.
Status retainClusterFields(std::string_view target_kind, Json& desired, const Json& cluster_object,
                           const Json& federated_object);

}  // namespace kf::sync
