// Cold restart: with every federated object propagated, the controller manager of the run
// directory is stopped (SIGTERM, by the PID in controller-manager.pid) and started again with
// the same arguments; measures how long the new process takes to reconcile every federated
// object again and what that costs (writes, CPU, memory).
#pragma once

#include <string>
#include <vector>

namespace kf::bench {

// Prints one line of key=value figures; 0 on success. The restarted process keeps running
// (its PID replaces the old one in RUN_DIR/controller-manager.pid).
int runColdRestart(const std::string& kubeconfig, const std::vector<std::string>& members,
                   const std::string& run_dir);

}  // namespace kf::bench
