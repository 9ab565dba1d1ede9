#pragma once
// What every kubefedctl subcommand shares: the global flags, the host-cluster client and the
// cobra-like help and error conventions.

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cmd/kubefedctl/flags.h"
#include "federation/client/kubeconfig.h"
#include "federation/client/rest_client.h"

namespace kf::kubefedctl {

inline constexpr const char* kDefaultKubefedNamespace = "kube-federation-system";
// Failures exit as KubeFed's klog.Fatalf does; usage errors as cobra does.
inline constexpr int kFailureExitCode = 255;
inline constexpr int kUsageExitCode = 1;

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
};

// An API client for one context ("" = the current context) of a loaded kubeconfig, with the
// CLI's user agent and rate limits.
Result<std::unique_ptr<RestClient>> cliClient(const Kubeconfig& kubeconfig,
                                              const std::string& context);

struct Streams {
  std::ostream& out = std::cout;
  std::ostream& err = std::cerr;
};

// The texts of `kubefedctl CMD --help`.
struct HelpText {
  std::string use;  // "enable (NAME | -f FILENAME)"
  std::string short_text;
  std::string long_text;
  std::string examples;
};

void printHelp(const HelpText& help, const FlagSet& flags, std::ostream& out);

// Parses args; on -h prints help and returns 0, on bad flags prints the error and usage and
// returns kUsageExitCode; otherwise returns -1 (go on).
int parseOrExit(FlagSet& flags, const std::vector<std::string>& args, const HelpText& help,
                Streams streams);

// Prints "Error: <message>" and returns kFailureExitCode.
int fail(const std::string& message, Streams streams);

}  // namespace kf::kubefedctl
