#pragma once
// What the controllers of status/ are built from. Everything referenced must outlive them.

#include <chrono>
#include <memory>

#include "federation/client/rest_client.h"
#include "federation/cluster/cluster_registry.h"
#include "federation/controller/control_plane_config.h"
#include "federation/informer/informer_manager.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"

namespace kf::status {

struct StatusControllerDeps {
  ControlPlaneConfig config;  // namespaces, cluster delays, status concurrency
  std::shared_ptr<RestClient> host;
  ClusterRegistry& clusters;
  // Shared with the sync controller of the same type: the same keys lease the same informers.
  InformerManager& host_informers;    // key.cluster = ""
  InformerManager& member_informers;  // key.cluster = member name
  Clock& clock;
  // How long after a member object changed its federated object is looked at (KubeFed's
  // retry delay), and the delay between NeedsRecheck passes.
  Duration retry_delay = std::chrono::seconds(10);
  // Delay of the reconciles queued when a cluster's readiness changed (after the cluster delay).
  Duration small_delay = std::chrono::seconds(3);
  // How long after a member workload's status changed the workload status is recomputed: a
  // rollout changes it many times a second; one write covers them.
  Duration workload_delay = std::chrono::seconds(1);
  // Where the member informer leases run; null: memberIoPool().
  TaskPool* member_io = nullptr;
};

}  // namespace kf::status
