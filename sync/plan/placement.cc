#include "sync/plan/placement.h"

#include <algorithm>
#include <iterator>

#include "apis/meta/label_selector.h"

namespace kf::sync {

namespace {

std::set<std::string> knownNames(const std::vector<MemberCluster>& clusters) {
  std::set<std::string> names;
  for (const auto& cluster : clusters) names.insert(cluster.name);
  return names;
}

std::set<std::string> intersection(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::set<std::string> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

}  // namespace

MemberCluster memberClusterFromObject(const Json& kubefed_cluster) {
  return MemberCluster{objectName(kubefed_cluster),
                       objectLabels(kubefed_cluster).value_or(StringMap())};
}

Result<std::set<std::string>> selectedClusterNames(const federated::Placement& placement,
                                                   const std::vector<MemberCluster>& clusters,
                                                   PlacementMode mode) {
  if (placement.clusters && mode == PlacementMode::kClustersOrSelector) {
    return std::set<std::string>(placement.clusters->begin(), placement.clusters->end());
  }
  if (!placement.cluster_selector) return std::set<std::string>();
  return meta::namesMatching(*placement.cluster_selector, clusters,
                             meta::FieldPath("spec.placement.clusterSelector"));
}

Result<std::set<std::string>> computePlacement(const Json& federated_object,
                                               const std::vector<MemberCluster>& clusters,
                                               PlacementMode mode) {
  KF_TRY(placement, federated::readPlacement(federated_object));
  KF_TRY(selected, selectedClusterNames(placement, clusters, mode));
  return intersection(selected, knownNames(clusters));
}

Result<std::set<std::string>> computeNamespacedPlacement(const Json& federated_object,
                                                         const Json* federated_namespace,
                                                         const std::vector<MemberCluster>& clusters,
                                                         bool namespace_scoped_control_plane,
                                                         PlacementMode mode) {
  KF_TRY(resource_clusters, computePlacement(federated_object, clusters, mode));
  if (federated_namespace == nullptr) {
    if (namespace_scoped_control_plane) return resource_clusters;
    return std::set<std::string>();
  }
  auto namespace_clusters =
      computePlacement(*federated_namespace, clusters, PlacementMode::kClustersOrSelector);
  if (!namespace_clusters) {
    return withContext(
        std::move(namespace_clusters).error(),
        "placement of FederatedNamespace " + meta::goQuote(objectNamespace(*federated_namespace) +
                                                           "/" + objectName(*federated_namespace)));
  }
  return intersection(resource_clusters, namespace_clusters.value());
}

}  // namespace kf::sync
