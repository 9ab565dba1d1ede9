#include "cmd/kubefedctl/plan_policies.h"

#include "apis/policy/override_policy.h"
#include "federation/client/resource_client.h"

namespace kf::kubefedctl {

Result<std::vector<Json>> PlanPolicies::list(const GroupVersionResource& resource,
                                             const std::string& ns) {
  if (api_absent_) return std::vector<Json>{};
  auto listed = ResourceClient(host_, resource, ns).listAll({});
  if (listed) {
    for (Json& item : listed.value().items) {
      // Lists leave kind out of their items; the policies are told apart by it.
      item["kind"] =
          resource.namespaced ? policy::kOverridePolicyKind : policy::kClusterOverridePolicyKind;
    }
    return std::move(listed.value().items);
  }
  if (isNotFound(listed.error())) {
    api_absent_ = true;  // the CRDs are not installed: no policy applies
    return std::vector<Json>{};
  }
  ApiError error = listed.error();
  error.message = "cannot list " + resource.resource +
                  " on the host cluster (the forecast "
                  "would miss what they change): " +
                  error.message;
  return error;
}

Result<std::vector<Json>> PlanPolicies::forNamespace(const std::string& ns) {
  if (!cluster_scoped_) {
    KF_TRY(cluster_scoped, list(policy::clusterOverridePoliciesResource(), ""));
    cluster_scoped_ = std::move(cluster_scoped);
  }
  std::vector<Json> out = *cluster_scoped_;
  if (ns.empty()) return out;
  auto cached = namespaced_.find(ns);
  if (cached == namespaced_.end()) {
    KF_TRY(namespaced, list(policy::overridePoliciesResource(), ns));
    cached = namespaced_.emplace(ns, std::move(namespaced)).first;
  }
  out.insert(out.end(), cached->second.begin(), cached->second.end());
  return out;
}

}  // namespace kf::kubefedctl
