#include "cmd/cli/process_config.h"

#include <cstdlib>
#include <utility>

namespace kf::cli {

std::string envOrEmpty(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

Result<RestConfig> processRestConfig(const std::string& kubeconfig, const std::string& master) {
  KubeconfigOptions options{kubeconfig, "", envOrEmpty("KUBECONFIG"), envOrEmpty("HOME")};
  InClusterEnv in_cluster{envOrEmpty("KUBERNETES_SERVICE_HOST"),
                          envOrEmpty("KUBERNETES_SERVICE_PORT")};
  KF_TRY(config, resolveRestConfig(options, in_cluster));
  RestConfig out = std::move(config);
  if (!master.empty()) out.server = master;
  return out;
}

}  // namespace kf::cli
