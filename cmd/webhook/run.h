#pragma once
// The webhook process (spec §2.10): flags, the HTTPS server with KubeFed's admission paths,
// signals.

#include <string>
#include <vector>

namespace kf::webhook {

// Returns the process exit code: 0 after SIGTERM/SIGINT, 255 on a fatal startup error (KubeFed's
// klog.Fatalf), 2 on bad flags.
int runWebhook(const std::vector<std::string>& args);

}  // namespace kf::webhook
