#pragma once
// `kubefedctl federate TYPE-NAME RESOURCE-NAME` and `federate -f FILE|DIR|-` (spec §3.5).

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

CommandSpec federateCommand();

}  // namespace kf::kubefedctl
