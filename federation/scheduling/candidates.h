#pragma once
// Which clusters an RSP schedules over (spec §2.7 steps 1-3).
//   1. The ready member clusters; none: nothing to do.
//   2. spec.targetKind must be FederatedDeployment or FederatedReplicaSet (else NeedsRecheck).
//   3. With intersectWithClusterSelector: only the ready clusters selected by the federated
//      object's placement AND by its FederatedNamespace's placement, both evaluated
//      selector-only: `placement.clusters` is ignored, an absent clusterSelector selects nothing
//      and `{}` selects every cluster. (KubeFed's quirk: a FederatedNamespace placed with
//      `clusters` and no clusterSelector leaves no candidates.) No candidates: nothing to do.

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "apis/federated/federated_resource.h"

namespace kf::scheduling {

inline constexpr std::string_view kSchedulableTargetKinds[] = {"FederatedDeployment",
                                                               "FederatedReplicaSet"};

bool isSchedulableTargetKind(std::string_view target_kind);

// A ready member cluster: its KubeFedCluster's name and labels.
struct ReadyCluster {
  std::string name;
  std::map<std::string, std::string> labels;
};

// Sorted names of the ready clusters (steps 1 and 3 without intersectWithClusterSelector).
std::vector<std::string> readyClusterNames(const std::vector<ReadyCluster>& ready);

// Step 3 with intersectWithClusterSelector: the sorted names of the ready clusters both
// placements select, selector-only. `federated_namespace` is the FederatedNamespace <ns>/<ns>;
// without one (nullptr) this fails, as KubeFed's does, also for a namespace-scoped control plane.
// Fails as well on a malformed placement or an invalid selector.
Result<std::vector<std::string>> clustersSelectedForScheduling(
    const std::vector<ReadyCluster>& ready, const Json& federated_object,
    const Json* federated_namespace);

}  // namespace kf::scheduling
