#include "cmd/kubefedctl/join_names.h"

namespace kf::kubefedctl {

std::string serviceAccountName(const std::string& cluster_name,
                               const std::string& host_cluster_name) {
  return cluster_name + "-" + host_cluster_name;
}

std::string tokenSecretName(const std::string& service_account) {
  return service_account + "-token";
}

std::string roleName(const std::string& service_account) {
  return "kubefed-controller-manager:" + service_account;
}

std::string healthCheckRoleName(const std::string& service_account,
                                const std::string& kubefed_namespace) {
  return "kubefed-controller-manager:" + kubefed_namespace + ":healthcheck-" + service_account;
}

}  // namespace kf::kubefedctl
