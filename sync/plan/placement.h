#pragma once
// Which member clusters a federated object is placed in (spec §1.6, placement_test).
//
//   * placement.clusters present (even empty) wins, and clusterSelector is ignored;
//   * otherwise clusterSelector absent or null selects no cluster, {} selects all of them, and
//     anything else selects the clusters whose KubeFedCluster labels match it;
//   * the result only keeps names of known clusters (ready or not); unknown names are dropped;
//   * selector-only mode (ReplicaSchedulingPreference intersection) ignores `clusters`.
// A namespaced federated object is further restricted to the placement of the FederatedNamespace
// of its namespace.

#include <set>
#include <string>
#include <vector>

#include "apis/federated/federated_resource.h"
#include "apis/meta/object.h"

namespace kf::sync {

// A KubeFedCluster as placement sees it.
struct MemberCluster {
  std::string name;
  StringMap labels;
};

// Name and labels of a KubeFedCluster object (labels of the wrong type read as none).
MemberCluster memberClusterFromObject(const Json& kubefed_cluster);

enum class PlacementMode {
  kClustersOrSelector,  // what the sync controller uses
  kSelectorOnly,        // only clusterSelector counts
};

// The names `placement` selects, before the intersection with known clusters. Fails when the
// selector is invalid (status ComputePlacementFailed).
Result<std::set<std::string>> selectedClusterNames(const federated::Placement& placement,
                                                   const std::vector<MemberCluster>& clusters,
                                                   PlacementMode mode);

// The placement of `federated_object` among `clusters`: its spec.placement read, selected and
// intersected with the names in `clusters`.
Result<std::set<std::string>> computePlacement(const Json& federated_object,
                                               const std::vector<MemberCluster>& clusters,
                                               PlacementMode mode);

// Placement of an object of a namespaced federated type: computePlacement of the object
// intersected with the placement of `federated_namespace` (the FederatedNamespace <ns>/<ns>,
// always in kClustersOrSelector mode). Without a FederatedNamespace (nullptr) a cluster-scoped
// control plane places nothing (status NamespaceNotFederated) and a namespace-scoped one uses
// the object's own placement.
Result<std::set<std::string>> computeNamespacedPlacement(const Json& federated_object,
                                                         const Json* federated_namespace,
                                                         const std::vector<MemberCluster>& clusters,
                                                         bool namespace_scoped_control_plane,
                                                         PlacementMode mode);

}  // namespace kf::sync
