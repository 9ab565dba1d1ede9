#pragma once
// The four things the sync controller does to a member object (spec §2.5.6), each run as one
// dispatched operation on the cluster's executor: create (adopting an existing object unless
// adoption is disabled), update (only when the recorded version says the member drifted), delete,
// and remove the managed label. Each records KubeFed's events ("<Op>InCluster" /
// "<Op>InClusterFailed") and reports its outcome through the OperationReport.

#include <functional>
#include <memory>
#include <string>

#include "apis/core/federated_type_config.h"
#include "federation/client/resource_client.h"
#include "federation/events/event_recorder.h"
#include "sync/dispatcher.h"
#include "sync/event_key.h"
#include "sync/propagated_versions.h"

namespace kf::sync {

using ClientLookup = std::function<Result<std::shared_ptr<RestClient>>(const std::string& cluster)>;

// What every operation on one federated object's member objects needs. Shared (read-only) by
// the operations of one reconcile, which may run on several threads at once.
struct MemberObjectContext {
  ObjectPtr federated;  // the federated object being reconciled
  core::ApiResource target_type;
  GroupVersionResource target_resource;
  QualifiedName target;               // the member objects' name
  ClusterVersions recorded_versions;  // versions recorded for the current hashes
  // Why the hashes, hence the recorded versions, could not be computed ("" when they could):
  // updates then fail with VersionRetrievalFailed.
  std::string version_error;
  // For a Namespace target: the UID of the host cluster's own Namespace of that name ("" when
  // the host has none), to recognise the host among the members.
  std::string host_namespace_uid;
  bool skip_adopting = false;  // KubeFedConfig adoptResources: Disabled
  ClientLookup client;
  EventRecorderPtr recorder;  // null: events are logged instead
  Clock* clock = nullptr;     // times dispatch_operation_duration_seconds; required

  bool isHostNamespace(const Json& cluster_object) const;
};

using ContextPtr = std::shared_ptr<const MemberObjectContext>;

void createInCluster(const ContextPtr& context, OperationReport& report);
void updateInCluster(const ContextPtr& context, const Json& cluster_object,
                     OperationReport& report);
void deleteInCluster(const ContextPtr& context, const DeleteOptions& options,
                     OperationReport& report);
void removeManagedLabelInCluster(const ContextPtr& context, OperationReport& report);

// Warning events with reason = the status name, as KubeFed records cluster errors that need no
// operation (ClusterNotReady: "Cluster not ready", ManagedLabelFalse, CachedRetrievalFailed).
void recordClusterError(const MemberObjectContext& context, PropagationStatus status,
                        const std::string& message);

// "Unable to manage the object which has label kubefed.io/managed: false"
std::string managedLabelFalseMessage();

}  // namespace kf::sync
