#pragma once
// What the ReplicaSchedulingPreference reconciler reads of one schedulable federated type
// (KubeFed's scheduling plugin, spec §2.7): the type's federated objects on the host and its
// member workloads, both from caches.

#include <functional>
#include <memory>
#include <string>

#include "apis/meta/object.h"

namespace kf::scheduling {

class ScheduledType {
 public:
  virtual ~ScheduledType() = default;
  // The federated type, e.g. types.kubefed.io/v1beta1 federateddeployments.
  virtual const GroupVersionResource& federatedResource() const = 0;
  // The FederatedNamespace type (of the `namespaces` FTC): intersectWithClusterSelector reads it.
  virtual const GroupVersionResource& federatedNamespaceResource() const = 0;
  // Every cache below is complete: the federated objects, and the member workloads of exactly
  // the clusters that are ready now.
  virtual bool synced() const = 0;
  // The cached federated object `key` ("ns/name"); null when absent.
  virtual ObjectPtr federatedObject(const std::string& key) const = 0;
  // The cached member workload `key` in `cluster` (managed-labeled); null when absent.
  virtual ObjectPtr memberWorkload(const std::string& cluster, const std::string& key) const = 0;
};
using ScheduledTypePtr = std::shared_ptr<const ScheduledType>;

// The type scheduling RSPs whose spec.targetKind is `federated_kind`; null when none runs.
using ScheduledTypeLookup = std::function<ScheduledTypePtr(const std::string& federated_kind)>;

}  // namespace kf::scheduling
