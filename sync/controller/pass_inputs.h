#pragma once
// What a propagation pass derives from the federated object and the known clusters before it
// looks at any member object: the placement, the placed names no cluster has, the template and
// overrides hashes its recorded versions are keyed by, and the namespace facts of its status.
// Shared by the pass and by `kubefedctl plan`, which must derive them the same way.

#include <set>
#include <string>
#include <vector>

#include "federation/cluster/cluster_registry.h"
#include "sync/controller/sync_context.h"
#include "sync/plan/federated_status.h"

namespace kf::sync {

struct VersionHashes {
  std::string template_version;
  std::string overrides_version;
  std::string error;  // "" when both were computed

  bool ok() const { return error.empty(); }
};

VersionHashes versionHashesOf(const Json& federated_object);

// The clusters the object is placed in among `clusters`; namespaced targets are further limited
// by `federated_namespace` (null when absent). Fails as ComputePlacementFailed.
Result<std::set<std::string>> placementOf(const SyncTypeInfo& type, const Json& federated_object,
                                          const Json* federated_namespace,
                                          const std::vector<ClusterSnapshot>& clusters);

// Names in placement.clusters that no KubeFedCluster has. As in KubeFed they play no part in
// propagation or in the Propagation condition (GitOps users name clusters before joining them);
// the pass warns about them once per generation, since such a name is also often a typo.
std::vector<std::string> unknownPlacedClusters(const Json& federated_object,
                                               const std::vector<ClusterSnapshot>& clusters);

NamespaceFacts namespaceFactsOf(const SyncTypeInfo& type, bool federated_namespace_exists);

}  // namespace kf::sync
