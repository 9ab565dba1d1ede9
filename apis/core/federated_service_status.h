#pragma once
// core.kubefed.io/v1alpha1 FederatedServiceStatus (namespaced, no status subresource): the
// legacy status controller's copy of each ready cluster's Service status (spec §1.4, §2.6).

#include <string>
#include <vector>

#include "apis/meta/object_header.h"

namespace kf::core {

struct ClusterServiceStatus {
  std::string cluster_name;
  Json status;  // a core/v1 ServiceStatus, kept as the member cluster reported it
  Json extra;
};

struct FederatedServiceStatus {
  meta::ObjectHeader header;
  std::vector<ClusterServiceStatus> cluster_status;  // sorted by cluster name when written
  Json extra;

  static Result<FederatedServiceStatus> fromJson(const Json& json);
  Json toJson() const;
};

}  // namespace kf::core
