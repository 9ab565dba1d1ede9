#pragma once
// What the legacy status controller (spec §2.6.2) writes, as pure functions: the
// FederatedServiceStatus of one federated object from what the member caches hold, and whether
// to create it, update it, or leave it alone.
//
//   apiVersion: core.kubefed.io/v1alpha1          # the FTC's statusType
//   kind: FederatedServiceStatus
//   metadata: {name, namespace, ownerReferences: [{apiVersion, kind, name, uid}]}  # the federated
//   object clusterStatus:                                 # every ready cluster, sorted by name
//   - clusterName: member1
//     status: {loadBalancer: {}}                   # the member object's .status; omitted when
//                                                  # the cluster does not hold the object

#include <string>
#include <vector>

#include "apis/core/federated_type_config.h"
#include "apis/meta/object.h"

namespace kf::status {

// One ready cluster and its cached member object (null when the cluster does not hold it).
struct MemberObject {
  std::string cluster;
  ObjectPtr object;
};

// The clusterStatus list: one entry per ready cluster, ordered by cluster name.
Json clusterStatusOf(std::vector<MemberObject> members);

enum class StatusObjectWrite { kNone, kCreate, kUpdate };

struct StatusObjectPlan {
  StatusObjectWrite write = StatusObjectWrite::kNone;
  Json object;  // what to create, or the stored object with the new clusterStatus (kUpdate)
};

// A new status object for `federated` when `existing` is null; else the stored one with
// `cluster_status` when its clusterStatus differs (KubeFed keeps the rest of it as stored).
StatusObjectPlan planStatusObject(const Json& federated, const core::ApiResource& status_type,
                                  const Json* existing, Json cluster_status);

}  // namespace kf::status
