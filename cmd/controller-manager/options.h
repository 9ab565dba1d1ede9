#pragma once
// The controller manager's command line (spec §2.1), parsed and checked.

#include <optional>
#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "cmd/cli/logging.h"
#include "federation/runtime/clock.h"

namespace kf::manager {

struct Options {
  std::string kubefed_namespace;
  std::string kubeconfig;
  std::string master;
  std::string kubefed_config;  // a KubeFedConfig YAML file instead of the API object
  std::string healthz_addr = ":8080";
  std::string metrics_addr = ":9090";
  // The host client's limits; unset unless given (host_limits.h chooses the defaults).
  std::optional<double> rest_config_qps;
  std::optional<int> rest_config_burst;
  // Each member cluster's client limits (KubeFed: fixed at 20/30).
  double member_client_qps = 20.0;
  int member_client_burst = 30;
  std::string feature_gates;  // "A=true,B=false"; wins over KubeFedConfig's featureGates
  int verbosity = 0;
  cli::LogSettings logging;  // klog's flags (-v, --logtostderr, --log-file, ...)
  bool print_version = false;
  bool help = false;

  bool leader_elect = true;
  // Each overrides KubeFedConfig's leaderElect value when given.
  std::optional<Duration> leader_elect_lease_duration;
  std::optional<Duration> leader_elect_renew_deadline;
  std::optional<Duration> leader_elect_retry_period;

  // Requeue backoff of failed sync reconciles (KubeFed: 5s doubling to 60s, not configurable).
  Duration sync_initial_backoff = std::chrono::seconds(5);
  Duration sync_max_backoff = std::chrono::seconds(60);

  // DEFAULT_KUBEFED_SCOPE from the environment: "", "Cluster" or "Namespaced".
  std::string default_scope;
  // WAIT_FOR_KUBEFED_CONFIG=true from the environment (beyond KubeFed; the Helm chart sets it):
  // someone else creates the KubeFedConfig, so an absent one is waited for, never created.
  bool wait_for_kubefed_config = false;
};

// Parses argv (without the program name) and the environment variables DEFAULT_KUBEFED_SCOPE and
// WAIT_FOR_KUBEFED_CONFIG (null when unset). Errors name the flag or variable and the bad value.
Result<Options> parseOptions(const std::vector<std::string>& args, const char* default_scope_env,
                             const char* wait_for_config_env = nullptr);

// "--name=value" for every flag, for the V(1) startup log line (no secrets are flags).
std::string describeFlags(const Options& options);

// The --help text.
std::string usage();

// The line printed first: "KubeFed controller-manager version: version.Info{...}".
std::string versionLine();

}  // namespace kf::manager
