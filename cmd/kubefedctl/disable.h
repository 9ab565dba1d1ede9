#pragma once
// `kubefedctl disable NAME` (spec §3.4).

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

CommandSpec disableCommand();

}  // namespace kf::kubefedctl
