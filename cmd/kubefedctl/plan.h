#pragma once
// `kubefedctl plan TYPE NAME` and `plan -f FILE|DIR|-` (beyond KubeFed): what the sync
// controller would do to every member cluster for a federated object, as stored or as a file
// would make it, with the diff of each member object it would write. Writes nothing.

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

CommandSpec planCommand();

}  // namespace kf::kubefedctl
