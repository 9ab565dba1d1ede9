#pragma once
// The override policies `kubefedctl plan` forecasts with (sync/controller/propagation_forecast.h):
// the OverridePolicies of a namespace and the ClusterOverridePolicies, listed once per plan run.
// Hosts without the policy CRDs have none (the lists answer NotFound once, and are not asked
// again).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "federation/client/rest_client.h"

namespace kf::kubefedctl {

class PlanPolicies {
 public:
  explicit PlanPolicies(RestClient& host) : host_(host) {}

  // The policies that may apply to a federated object in `ns` ("" for a cluster-scoped one).
  Result<std::vector<Json>> forNamespace(const std::string& ns);

 private:
  // Every policy of `resource` in `ns` ("" for all or cluster-scoped), or none without the CRD.
  Result<std::vector<Json>> list(const GroupVersionResource& resource, const std::string& ns);

  RestClient& host_;
  bool api_absent_ = false;
  std::optional<std::vector<Json>> cluster_scoped_;
  std::map<std::string, std::vector<Json>> namespaced_;
};

}  // namespace kf::kubefedctl
