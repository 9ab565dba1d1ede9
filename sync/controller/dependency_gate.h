#pragma once
// A workload's part of ordering within a cluster (beyond KubeFed; decisions in
// sync/plan/dependency_order.h): before a pass creates a federated workload in a cluster, the
// objects its pod template references that follow it (kubefed-cpp.io/placement-follows) must be
// propagated there: their status lists the cluster without an error. They are found through the
// process's FollowerDirectory. A workload that references no follower is never held back.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "sync/controller/sync_context.h"
#include "sync/plan/sync_plan.h"

namespace kf::sync {

// How long a creation waits for the followers it needs before it goes ahead anyway.
inline constexpr Duration kDependencyWait = std::chrono::seconds(30);
// How soon a pass that deferred a creation looks again.
inline constexpr Duration kDependencyRecheck = std::chrono::seconds(1);

struct GatedSteps {
  std::vector<ClusterStep> steps;
  std::optional<Duration> recheck;  // set when a creation was deferred
};

// The steps with the creations that must wait deferred. Events: WaitingForDependencies (Normal)
// when a cluster starts waiting, DependenciesNotPropagated (Warning) when one is created without
// them after kDependencyWait.
GatedSteps orderAfterFollowers(SyncContext& context, const Json& federated_object,
                               std::vector<ClusterStep> steps);

}  // namespace kf::sync
