#include "sync/controller/followed_placement.h"

#include <utility>

#include "apis/meta/join.h"
#include "sync/controller/pass_inputs.h"
#include "sync/controller/workload_followers.h"
#include "sync/plan/workload_references.h"

namespace kf::sync {

namespace {

std::string listed(const std::set<std::string>& clusters) {
  return clusters.empty()
             ? "no cluster"
             : joinWith(std::vector<std::string>(clusters.begin(), clusters.end()), ", ");
}

// The clusters the object's status lists: where it was last propagated (placed).
std::set<std::string> clustersInStatus(const Json& federated_object) {
  std::set<std::string> out;
  const Json* clusters = nestedField(federated_object, {"status", "clusters"});
  if (clusters == nullptr || !clusters->is_array()) return out;
  for (const Json& entry : *clusters) {
    if (entry.is_object() && entry.contains("name") && entry["name"].is_string()) {
      out.insert(entry["name"].get<std::string>());
    }
  }
  return out;
}

void warnInvalid(const SyncContext& context, const Json& federated_object, const std::string& why) {
  if (!context.recorder) return;
  context.recorder->event(referenceTo(federated_object), EventType::kWarning,
                          "InvalidPlacementFollows",
                          std::string("annotation ") + kPlacementFollowsAnnotation + ": " + why +
                              "; the object's own placement applies");
}

// An Event when the union differs from the last one (in this process, else from the clusters
// in the object's status).
void reportChange(SyncContext& context, const Json& federated_object,
                  const std::vector<ReferencingWorkload>& workloads,
                  const std::set<std::string>& placement) {
  std::optional<std::set<std::string>> before =
      context.followed_placements.exchange(objectKey(federated_object), placement);
  if (!before) before = clustersInStatus(federated_object);
  if (*before == placement || !context.recorder) return;
  std::vector<std::string> names;
  for (const ReferencingWorkload& workload : workloads) names.push_back(workload.description);
  context.recorder->event(referenceTo(federated_object), EventType::kNormal,
                          "PlacementFollowsWorkloads",
                          "placed in " + listed(placement) + " (was " + listed(*before) +
                              "), the union of the placements of the workloads referencing it: " +
                              (names.empty() ? std::string("none") : joinWith(names, ", ")));
}

}  // namespace

Result<FollowedPlacement> followedPlacementOf(SyncContext& context, const Json& federated_object,
                                              const Json* federated_namespace,
                                              const std::vector<ClusterSnapshot>& clusters) {
  using Kind = FollowedPlacement::Kind;
  const FollowsMode mode = followsModeOf(federated_object);
  if (mode == FollowsMode::kOwnPlacement) return FollowedPlacement{};
  if (mode == FollowsMode::kInvalid) {
    warnInvalid(context, federated_object,
                std::string("the only value is \"") + kFollowsWorkloads + "\"");
    return FollowedPlacement{};
  }
  if (context.workload_followers == nullptr) {
    warnInvalid(context, federated_object,
                "pod templates reference ConfigMaps, Secrets, ServiceAccounts and "
                "PersistentVolumeClaims only, not a " +
                    context.type.target_type.kind);
    return FollowedPlacement{};
  }
  KF_TRYV(context.workload_followers->activate());
  if (!context.workload_followers->synced()) return FollowedPlacement{Kind::kNotSynced, {}};
  std::vector<ReferencingWorkload> workloads;
  for (const CachedWorkload& workload :
       context.workload_followers->referencing(objectKey(federated_object))) {
    ReferencingWorkload entry{workload.kind + " \"" + objectName(*workload.object) + "\"", {}};
    Result<std::set<std::string>> placement =
        placementOf(context.type, *workload.object, federated_namespace, clusters);
    // A workload whose own placement cannot be computed is not propagated either.
    if (placement) entry.placement = std::move(placement.value());
    workloads.push_back(std::move(entry));
  }
  std::set<std::string> placement = followerPlacement(workloads);
  reportChange(context, federated_object, workloads, placement);
  return FollowedPlacement{Kind::kFollowed, std::move(placement)};
}

}  // namespace kf::sync
