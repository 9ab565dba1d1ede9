#pragma once
// The API server a long-running binary (controller manager, webhook) talks to, chosen from its
// --kubeconfig and --master flags as client-go's clientcmd chooses it.

#include <string>

#include "federation/client/kubeconfig.h"

namespace kf::cli {

// The value of an environment variable, "" when unset.
std::string envOrEmpty(const char* name);

// The kubeconfig of --kubeconfig (else KUBECONFIG, else in-cluster when the service variables
// are set, else ~/.kube/config), its server replaced by --master when that is given.
Result<RestConfig> processRestConfig(const std::string& kubeconfig, const std::string& master);

}  // namespace kf::cli
