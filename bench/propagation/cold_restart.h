// Cold restart: with every federated object propagated, the controller manager of the run
// directory is stopped (SIGTERM, by the PID in controller-manager.pid) and started again with
// the same arguments; measures how long the new process takes to reconcile every federated
// object again and what that costs (writes, CPU, memory). With probes, users write while it
// re-checks (user_probes.h): how long their writes take to reach the members behind the backlog.
#pragma once

#include <string>
#include <vector>

namespace kf::bench {

struct RestartOptions {
  // Users' writes sent once the re-check has begun (the FederatedConfigMaps' worker finished a
  // key, and a reconcile found its federated object), 100 ms apart: new
  // FederatedConfigMaps and edits of existing ones in turn, in `probe_namespace`.
  int probes = 0;
  std::string probe_namespace = "bench";
  // The controller manager to start instead of the one that runs (same arguments): the tree
  // before a change against the tree after it, on the same federation. Empty: the same binary.
  std::string binary;
};

// Prints one line of key=value figures; 0 on success. The restarted process keeps running
// (its PID replaces the old one in RUN_DIR/controller-manager.pid).
int runColdRestart(const std::string& kubeconfig, const std::vector<std::string>& members,
                   const std::string& run_dir, const RestartOptions& options);

}  // namespace kf::bench
