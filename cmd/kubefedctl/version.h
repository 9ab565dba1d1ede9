#pragma once
// `kubefedctl version` (spec §3.7).

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

int runVersion(const std::vector<std::string>& args, Streams streams);

}  // namespace kf::kubefedctl
