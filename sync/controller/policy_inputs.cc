#include "sync/controller/policy_inputs.h"

#include "sync/plan/desired_object.h"

namespace kf::sync {

PolicyPatches policyPatchesOf(const SyncTypeInfo& type, const Json& federated_object,
                              const std::vector<policy::OverridePolicy>& policies,
                              const std::vector<ClusterSnapshot>& clusters,
                              const std::set<std::string>& placement) {
  if (policies.empty()) return {};
  std::vector<PolicyCluster> placed;
  for (const ClusterSnapshot& cluster : clusters) {
    if (placement.contains(cluster.name)) placed.push_back({cluster.name, cluster.labels});
  }
  PolicyPatches patches = policyPatchesFor(policies, federated_object, placed);
  // A template that does not compute fails every cluster anyway (ComputeResourceFailed).
  if (auto from_template = objectFromTemplate(federated_object, type.target_type)) {
    dropFailingPatches(patches, from_template.value().object);
  }
  return patches;
}

}  // namespace kf::sync
