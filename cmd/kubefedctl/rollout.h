#pragma once
// `kubefedctl rollout status|approve|pause|resume|undo KIND/NAME` (beyond KubeFed): the staged
// rollout of a federated object under a RolloutStrategy, in the kubectl way. The controller
// keeps the run in a RolloutRun; these commands read it and write only what the controller
// already reads on the federated object: the approval and pause annotations, and for undo the
// run's previous template as spec.template.

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

CommandSpec rolloutCommand();

}  // namespace kf::kubefedctl
