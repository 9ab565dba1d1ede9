#pragma once
// `kubefedctl enable (NAME | -f FILENAME)` (spec §3.3).

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

int runEnable(const std::vector<std::string>& args, Streams streams);

}  // namespace kf::kubefedctl
