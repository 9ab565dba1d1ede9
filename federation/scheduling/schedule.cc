#include "federation/scheduling/schedule.h"

namespace kf::scheduling {

ReplicaSchedulingPreferenceSpec withDefaultPreferences(ReplicaSchedulingPreferenceSpec spec) {
  if (spec.clusters.empty()) {
    spec.clusters.emplace(std::string(kAllClusters), ClusterPreferences{.weight = 1});
  }
  return spec;
}

Result<ReplicaCounts> scheduleReplicas(const ReplicaSchedulingPreferenceSpec& spec,
                                       const std::vector<std::string>& candidates,
                                       const ReplicaState& state, std::string_view key) {
  KF_TRY(plan, planReplicas(withDefaultPreferences(spec), candidates, state.current, state.capacity,
                            key));
  ReplicaCounts result;
  for (const auto& [cluster, running] : state.current) result[cluster] = 0;
  for (const auto& [cluster, replicas] : plan.replicas) result[cluster] = replicas;
  for (const auto& [cluster, replicas] : plan.overflow) result[cluster] += replicas;
  return result;
}

}  // namespace kf::scheduling
