#pragma once
// `kubefedctl enable (NAME | -f FILENAME)` (spec §3.3).

#include <ostream>
#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

CommandSpec enableCommand();

// `kubefedctl enable NAME` with every other flag at its default, as `federate --enable-type`
// does it.
Status enableType(RestClient& client, const std::string& name, const std::string& kubefed_namespace,
                  bool dry_run, std::ostream& out);

}  // namespace kf::kubefedctl
