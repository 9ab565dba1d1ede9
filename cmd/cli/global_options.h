#pragma once
// The flags every kubefedctl command that talks to the host cluster shares (spec §3):
// --kubeconfig, --host-cluster-context, --kubefed-namespace, --dry-run, and the clients they
// select.

#include <memory>
#include <string>

#include "cmd/cli/flags.h"
#include "federation/client/kubeconfig.h"
#include "federation/client/rest_client.h"

namespace kf::cli {

inline constexpr const char* kDefaultKubefedNamespace = "kube-federation-system";

struct GlobalOptions {
  std::string kubeconfig;
  std::string host_cluster_context;
  std::string kubefed_namespace = kDefaultKubefedNamespace;
  bool dry_run = false;

  void addTo(FlagSet& flags);
  // The kubeconfig of --kubeconfig, or else of KUBECONFIG / ~/.kube/config.
  Result<Kubeconfig> loadKubeconfig() const;
  // The host cluster's API client, from that kubeconfig and --host-cluster-context.
  Result<std::unique_ptr<RestClient>> hostClient() const;
  // The namespace of the host context in the kubeconfig, else "default" (kubectl's rule for -n).
  Result<std::string> contextNamespace() const;
};

// An API client for one context ("" = the current context) of a loaded kubeconfig, with the
// CLI's user agent and rate limits.
Result<std::unique_ptr<RestClient>> cliClient(const Kubeconfig& kubeconfig,
                                              const std::string& context);

}  // namespace kf::cli
