#pragma once
// `kubefedctl disable NAME` (spec §3.4).

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"
#include "federation/client/resource_client.h"
#include "federation/runtime/clock.h"

namespace kf::kubefedctl {

CommandSpec disableCommand();

// Waits (polling `clock`) until the controller manager reports in the FTC's status that it
// stopped the sync controller, with KubeFed's lines on `out` and its error after 10 s. As in
// KubeFed, a failed read is logged and the wait goes on.
Status waitPropagationStopped(ResourceClient& type_configs, const std::string& name,
                              const std::string& qualified_name, Clock& clock, std::ostream& out);

}  // namespace kf::kubefedctl
