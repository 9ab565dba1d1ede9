#include "cmd/controller-manager/run.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <stop_token>

#include "cmd/cli/command.h"
#include "cmd/cli/logging.h"
#include "cmd/cli/process_config.h"
#include "cmd/cli/process_start.h"
#include "cmd/controller-manager/config_change_watch.h"
#include "cmd/controller-manager/host_limits.h"
#include "cmd/controller-manager/kubefed_config_source.h"
#include "cmd/controller-manager/options.h"
#include "cmd/controller-manager/servers.h"
#include "controllers/manager/controller_manager.h"
#include "federation/client/kubeconfig.h"
#include "federation/controller/manager.h"
#include "federation/election/identity.h"
#include "federation/election/leader_elector.h"
#include "federation/election/lock_types.h"
#include "federation/events/api_event_recorder.h"
#include "federation/runtime/task_pool.h"

namespace kf::manager {
namespace {

constexpr int kExitFatal = cli::kExitFailure;
constexpr int kExitLeadershipLost = 1;
constexpr const char* kLeaderLockName = "kubefed-controller-manager";

int fatal(const std::string& message) {
  spdlog::critical("Error: {}", message);
  return kExitFatal;
}

// The host's config at KubeFed's limits, or the flags' when given: what the start-up requests run
// at before the host client's limits are decided.
Result<RestConfig> hostRestConfig(const Options& options) {
  KF_TRY(config, cli::processRestConfig(options.kubeconfig, options.master));
  RestConfig out = withHostLimits(std::move(config),
                                  chooseHostLimits(options, /*has_priority_and_fairness=*/false));
  out.user_agent = "kubefed-controller-manager";
  return out;
}

Result<std::string> kubefedNamespace(const Options& options) {
  std::string ns = options.kubefed_namespace;
  if (ns.empty() && options.kubeconfig.empty() && options.master.empty()) {
    std::ifstream in(std::string(kServiceAccountDir) + "/namespace");
    std::getline(in, ns);
  }
  if (ns.empty()) {
    return makeError(Reason::kBadConfig,
                     "The KubeFed namespace must be specified via --kubefed-namespace");
  }
  return ns;
}

// A Warning event on the KubeFedConfig, so that `kubectl describe kubefedconfig` tells why the
// controller manager does not start; written before the process exits.
void reportInvalidConfig(RestClient& host, const std::string& ns, const std::string& message) {
  ApiEventRecorder recorder(host, "kubefed-controller-manager", "", realClock());
  recorder.event(ObjectReference{.api_version = "core.kubefed.io/v1beta1",
                                 .kind = "KubeFedConfig",
                                 .namespace_name = ns,
                                 .name = kKubeFedConfigName},
                 EventType::kWarning, "InvalidKubeFedConfig", message);
  recorder.stop();
}

// Runs the controllers (while leading, with `election`) until `stop`; the process's exit code.
int runControllers(const ControlPlaneConfig& config, const std::shared_ptr<RestClient>& host,
                   TaskPools pools, std::optional<LeaderElectionConfig> election,
                   const std::stop_token& stop) {
  Manager manager(std::move(election), realClock());
  ControllerManager controllers(config, host, realClock(), pools);
  controllers.addTo(manager);
  auto exit = manager.run(stop);
  if (!exit) {
    spdlog::error("Error: cannot start controllers: {}", exit.error().message);
    return kExitFatal;
  }
  if (exit.value() == ManagerExit::kLeadershipLost) {
    // The elector logged "leader election lost".
    spdlog::critical("lost lease");
    return kExitLeadershipLost;
  }
  return 0;
}

int runWithLeaderElection(const ControlPlaneConfig& config, const std::shared_ptr<RestClient>& host,
                          TaskPools pools, const std::stop_token& stop) {
  LeaderElectionConfig election;
  election.identity = makeLeaderIdentity();
  auto lock = makeResourceLock(config.resource_lock, *host, config.kubefed_namespace,
                               kLeaderLockName, election.identity);
  if (!lock) return fatal("error creating lock: " + lock.error().message);
  election.lock = lock.value().get();
  // KubeFed records the LeaderElection events in its namespace as the controller manager.
  ApiEventRecorder recorder(*host, "kubefed-controller-manager", "", realClock());
  election.recorder = &recorder;
  election.lease_duration = config.lease_duration;
  election.renew_deadline = config.renew_deadline;
  election.retry_period = config.retry_period;
  election.release_on_cancel = true;
  if (auto invalid = validateLeaderElectionConfig(election); !invalid.empty()) {
    return fatal("invalid leader election settings: " + invalid);
  }
  spdlog::info("Leader election identity: {}", election.identity);
  spdlog::info("Leader election lock: {} {}", config.resource_lock, lock.value()->describe());
  return runControllers(config, host, pools, std::move(election), stop);
}

}  // namespace

int runControllerManager(const std::vector<std::string>& args) {
  cli::StopSignals signals;  // first, so that every later thread inherits the blocked mask
  // Until the flags are read, anything logged goes to stderr, as klog's.
  (void)cli::setUpLogging({});
  auto parsed = parseOptions(args, std::getenv("DEFAULT_KUBEFED_SCOPE"),
                             std::getenv("WAIT_FOR_KUBEFED_CONFIG"));
  if (auto exit = cli::startUp(parsed, {usage(), versionLine(), /*usage_after_error=*/true})) {
    return *exit;
  }
  const Options options = std::move(parsed).value();

  ReadinessFlag ready;
  // KubeFed fails at once on an address in use; a replacement started right after the process
  // it replaces would then die for nothing.
  auto servers = startServers(options, ready, serving::BindRetry{.clock = &realClock()});
  if (!servers) return fatal(servers.error().message);

  auto host_config = hostRestConfig(options);
  if (!host_config)
    return fatal("cannot build the host cluster's client: " + host_config.error().message);
  auto ns = kubefedNamespace(options);
  if (!ns) return fatal(ns.error().message);
  auto startup_client = RestClient::create(host_config.value(), realClock());
  if (!startup_client) return fatal(startup_client.error().message);

  // From here a signal stops the process: also while it waits for its KubeFedConfig.
  std::stop_source stop;
  signals.stopOnSignal(stop);
  auto kubefed_config = obtainKubeFedConfig(*startup_client.value(), options, ns.value(),
                                            realClock(), stop.get_token());
  if (!kubefed_config && kubefed_config.error().reason == Reason::kCancelled) {
    spdlog::info("{}", kubefed_config.error().message);
    return 0;
  }
  if (!kubefed_config) {
    if (kubefed_config.error().reason == Reason::kInvalid) {
      reportInvalidConfig(*startup_client.value(), ns.value(), kubefed_config.error().message);
    }
    return fatal(kubefed_config.error().message);
  }
  FeatureGate gates = kubefedFeatureGates();
  auto config = controlPlaneConfigFrom(kubefed_config.value(), options, ns.value(), gates);
  if (!config) return fatal(config.error().message);

  // A client's limits are fixed when it is made, and every host client of the controllers is
  // made from this one's config: so the limits are decided before it exists.
  const HostLimits limits = decideHostLimits(options, *startup_client.value());
  spdlog::info("{}", describeHostLimits(limits));
  auto host_client = RestClient::create(withHostLimits(host_config.value(), limits), realClock());
  if (!host_client) return fatal(host_client.error().message);
  std::shared_ptr<RestClient> host = std::move(host_client).value();

  // The pools every informer and controller shares (federation/runtime/task_pool.h), made here
  // once; declared before what uses them, so they go after it.
  TaskPool member_io(kMemberIoThreads, "member-io");
  TaskPool dispatch(kDispatchThreads, "dispatch");
  const TaskPools pools{.member_io = &member_io, .dispatch = &dispatch};

  // Configured: ready to lead or to stand by.
  ready.set(true);
  // Standby replicas watch too: one that started with an old config would lead with it.
  std::optional<ConfigChangeWatch> config_watch;
  if (options.kubefed_config.empty()) {
    config_watch.emplace(*host, ns.value(), kubefed_config.value(), stop, realClock(), pools);
  }
  if (options.leader_elect) {
    return runWithLeaderElection(config.value(), host, pools, stop.get_token());
  }
  return runControllers(config.value(), host, pools, std::nullopt, stop.get_token());
}

}  // namespace kf::manager
