#pragma once
// The sync (propagation) controller of one federated type (spec §2.5): keeps the target objects
// in the member clusters equal to what the type's federated objects ask for. One runs per
// FederatedTypeConfig with propagation Enabled; the FTC controller starts and stops it through
// the assembly's factory. It is a SyncReconciler (sync_reconciler.h) on the controller runtime.
//
// It reconciles one federated object at a time per worker, queued by:
//   * the federated object changing (at once);
//   * a managed member object changing (after retry_delay);
//   * host Namespaces (for the `namespaces` type) or FederatedNamespaces (namespaced types);
//   * a cluster becoming ready or unready (every object, after cluster_available_delay or
//     cluster_unavailable_delay).
// Member-cluster operations run on a lane per cluster of the process's member I/O pool (at most
// dispatch.per_cluster_concurrency at once per cluster) under one shared deadline per
// reconcile, so a slow or dead cluster holds up only its own operations.
//
// Member informers are leased from `member_informers` with key {cluster, target resource,
// target namespace, label selector "kubefed.io/managed=true", no field selector}: a status
// controller that leases the same key shares them.

#include <functional>
#include <memory>
#include <string>

#include "apis/core/federated_type_config.h"
#include "federation/client/rest_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/control_plane_config.h"
#include "federation/controller/controller.h"
#include "federation/events/event_recorder.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"

namespace kf::sync {

struct DispatchLimits {
  int per_cluster_concurrency = 4;
  Duration operation_timeout = std::chrono::seconds(30);  // KubeFed's, per reconcile
};

// The FederatedNamespace type `kubefedctl enable namespaces` creates by default.
core::ApiResource defaultFederatedNamespaceType();

struct SyncControllerDeps {
  ControlPlaneConfig config;  // namespaces, delays, concurrency, adoption, raw status gate
  std::shared_ptr<RestClient> host;
  ClusterRegistry& clusters;
  InformerManager& host_informers;    // informers on the host (key.cluster = "")
  InformerManager& member_informers;  // key.cluster = member name
  // The recorder of a component; called once with "<lower-case federated kind>-controller".
  std::function<EventRecorderPtr(const std::string& component)> recorder;
  Clock& clock;
  // The federated type of the `namespaces` FTC: objects of namespaced types are placed within
  // the FederatedNamespace of their namespace.
  core::ApiResource federated_namespace_type = defaultFederatedNamespaceType();
  DispatchLimits dispatch;
  // Delay before a member object event is reconciled, and between NeedsRecheck passes.
  Duration retry_delay = std::chrono::seconds(10);
  // Delay of the reconciles queued when a cluster's readiness changed (after the cluster delay).
  Duration small_delay = std::chrono::seconds(3);
  // Where member operations and member informer leases run; null: memberIoPool().
  TaskPool* member_io = nullptr;
};

// The sync controller of the FTC's type, not started; its workers and informers start with it.
// Fails when the FTC cannot be propagated (e.g. a cluster-scoped type on a namespace-scoped
// control plane) or a host informer cannot start.
Result<ControllerPtr> syncController(const core::FederatedTypeConfig& ftc, SyncControllerDeps deps);

}  // namespace kf::sync
