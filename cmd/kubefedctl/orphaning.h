#pragma once
// `kubefedctl orphaning-deletion enable|disable|status <resource type> <resource name>`
// (spec §3.6): the `kubefed.io/orphan` annotation that makes deleting a federated object leave
// its member objects in place.

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

CommandSpec orphaningDeletionCommand();

}  // namespace kf::kubefedctl
