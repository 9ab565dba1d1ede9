#include "cmd/cli/global_options.h"

#include "cmd/cli/process_config.h"

namespace kf::cli {

void GlobalOptions::addTo(FlagSet& flags) {
  flags.addString("kubeconfig", 0, &kubeconfig,
                  "Path to the kubeconfig file to use for CLI requests.");
  flags.addString("host-cluster-context", 0, &host_cluster_context, "Host cluster context");
  flags.addString(
      "kubefed-namespace", 0, &kubefed_namespace,
      "Namespace in the host cluster where the KubeFed system components are installed. "
      "This namespace will also be the target of propagation if the controller manager "
      "is configured with --scope and this value is not provided.");
  flags.addBool("dry-run", 0, &dry_run,
                "Run the command in dry-run mode, without making any server requests.");
}

Result<Kubeconfig> GlobalOptions::loadKubeconfig() const {
  KubeconfigOptions options;
  options.kubeconfig_path = kubeconfig;
  options.kubeconfig_env = envOrEmpty("KUBECONFIG");
  options.home = envOrEmpty("HOME");
  return kf::loadKubeconfig(options);
}

Result<std::unique_ptr<RestClient>> GlobalOptions::hostClient() const {
  KF_TRY(loaded, loadKubeconfig());
  return cliClient(loaded, host_cluster_context);
}

Result<std::string> GlobalOptions::contextNamespace() const {
  KF_TRY(loaded, loadKubeconfig());
  const std::string context =
      host_cluster_context.empty() ? loaded.current_context : host_cluster_context;
  auto found = loaded.contexts.find(context);
  if (found == loaded.contexts.end() || found->second.namespace_name.empty()) return "default";
  return found->second.namespace_name;
}

Result<std::unique_ptr<RestClient>> cliClient(const Kubeconfig& kubeconfig,
                                              const std::string& context) {
  KF_TRY(config, restConfigFor(kubeconfig, context));
  config.user_agent = "kubefedctl";
  // A CLI makes a burst of discovery requests; kubectl's own limits are of this order.
  config.qps = 50;
  config.burst = 100;
  return RestClient::create(config, realClock());
}

}  // namespace kf::cli
