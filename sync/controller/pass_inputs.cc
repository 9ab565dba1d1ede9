#include "sync/controller/pass_inputs.h"

#include <algorithm>

#include "apis/encoding/version_hash.h"
#include "apis/federated/federated_resource.h"
#include "sync/plan/placement.h"

namespace kf::sync {

VersionHashes versionHashesOf(const Json& federated_object) {
  const EncodeResult template_version = templateVersion(federated_object);
  const EncodeResult overrides_version = overridesVersion(federated_object);
  VersionHashes out{template_version.value, overrides_version.value, ""};
  if (!template_version.ok()) {
    out.error = "computing the template version: " + template_version.error;
  } else if (!overrides_version.ok()) {
    out.error = "computing the overrides version: " + overrides_version.error;
  }
  return out;
}

Result<std::set<std::string>> placementOf(const SyncTypeInfo& type, const Json& federated_object,
                                          const Json* federated_namespace,
                                          const std::vector<ClusterSnapshot>& clusters) {
  std::vector<MemberCluster> members;
  members.reserve(clusters.size());
  for (const ClusterSnapshot& cluster : clusters) {
    members.push_back(MemberCluster{cluster.name, cluster.labels});
  }
  if (type.targetNamespaced()) {
    return computeNamespacedPlacement(federated_object, federated_namespace, members,
                                      type.namespace_scoped_control_plane,
                                      PlacementMode::kClustersOrSelector);
  }
  return computePlacement(federated_object, members, PlacementMode::kClustersOrSelector);
}

std::vector<std::string> unknownPlacedClusters(const Json& federated_object,
                                               const std::vector<ClusterSnapshot>& clusters) {
  std::vector<std::string> unknown;
  auto placement = federated::readPlacement(federated_object);
  if (!placement || !placement.value().clusters) return unknown;
  for (const std::string& name : *placement.value().clusters) {
    const bool known = std::any_of(clusters.begin(), clusters.end(),
                                   [&](const ClusterSnapshot& c) { return c.name == name; });
    if (!known) unknown.push_back(name);
  }
  return unknown;
}

NamespaceFacts namespaceFactsOf(const SyncTypeInfo& type, bool federated_namespace_exists) {
  return NamespaceFacts{type.namespace_scoped_control_plane, type.targetNamespaced(),
                        federated_namespace_exists};
}

}  // namespace kf::sync
