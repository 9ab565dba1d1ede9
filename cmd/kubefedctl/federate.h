#pragma once
// `kubefedctl federate TYPE-NAME RESOURCE-NAME` and `federate -f FILE|DIR|-` (spec §3.5).

#include "cmd/kubefedctl/command.h"
#include "federation/client/resource_client.h"
#include "federation/runtime/clock.h"

namespace kf::kubefedctl {

CommandSpec federateCommand();

// Creates `object`; a NotFound (the federated CRD not served yet, right after `enable`) is tried
// again every second for 10 s on `clock`, as KubeFed does. The last answer.
Result<Json> createWhenServed(ResourceClient& federated, const Json& object, Clock& clock);

}  // namespace kf::kubefedctl
