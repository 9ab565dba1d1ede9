#pragma once
// The root command: picks the subcommand, prints the command list on help or misuse.

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

int runRoot(const std::vector<std::string>& args, Streams streams);

}  // namespace kf::kubefedctl
