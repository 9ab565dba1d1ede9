#pragma once
// The controller manager process: startup sequence of spec §2.1, leader election, signals.

#include <string>
#include <vector>

namespace kf::manager {

// Returns the process exit code: 0 after SIGTERM/SIGINT, 1 when leadership was lost, 255 on a
// fatal startup error (KubeFed's klog.Fatalf), 1 on bad flags (cobra's).
int runControllerManager(const std::vector<std::string>& args);

}  // namespace kf::manager
