#pragma once
// kubefedctl's command tree, and the entry point main() calls.

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

const CommandSpec& kubefedctlCommands();

int runRoot(const std::vector<std::string>& args, Streams streams);

}  // namespace kf::kubefedctl
