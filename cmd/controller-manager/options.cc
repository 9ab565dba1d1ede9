#include "cmd/controller-manager/options.h"

#include <charconv>
#include <sstream>

#include "apis/meta/duration.h"
#include "cmd/cli/command.h"
#include "cmd/cli/flags.h"
#include "cmd/cli/version.h"

namespace kf::manager {
namespace {

ApiError badFlag(const std::string& flag, const std::string& value, const std::string& why) {
  return makeError(Reason::kBadConfig,
                   "invalid value \"" + value + "\" for flag --" + flag + ": " + why);
}

Result<int> parseInt(const std::string& flag, const std::string& text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return badFlag(flag, text, "expected an integer");
  }
  return value;
}

Result<double> parseDouble(const std::string& flag, const std::string& text) {
  std::istringstream in(text);
  double value = 0;
  in >> value;
  if (in.fail() || !in.eof()) return badFlag(flag, text, "expected a number");
  return value;
}

Result<std::optional<Duration>> parseDuration(const std::string& flag, const std::string& text) {
  if (text.empty()) return std::optional<Duration>{};
  auto value = meta::parseGoDuration(text);
  if (!value || *value <= Duration::zero()) {
    return badFlag(flag, text, "expected a positive duration such as 15s or 1m30s");
  }
  return std::optional<Duration>{*value};
}

struct RawFlags {
  std::string qps;  // empty: not given
  std::string burst;
  std::string member_qps = "20";
  std::string member_burst = "30";
  cli::LogOptions log;
  std::string lease_duration;
  std::string renew_deadline;
  std::string retry_period;
  std::string sync_initial_backoff = "5s";
  std::string sync_max_backoff = "60s";
};

void declare(cli::FlagSet& flags, Options& o, RawFlags& raw) {
  flags.addString("kubefed-namespace", 0, &o.kubefed_namespace,
                  "The namespace the KubeFed control plane is deployed in.");
  flags.addString("kubeconfig", 0, &o.kubeconfig,
                  "Path to a kubeconfig. Only required if out-of-cluster.");
  flags.addString("master", 0, &o.master,
                  "The address of the Kubernetes API server. Overrides any value in kubeconfig. "
                  "Only required if out-of-cluster.");
  flags.addString("kubefed-config", 0, &o.kubefed_config,
                  "Path to a KubeFedConfig yaml file. Test only.");
  flags.addString("healthz-addr", 0, &o.healthz_addr, "The address the healthz endpoint binds to.");
  flags.addString("metrics-addr", 0, &o.metrics_addr, "The address the metric endpoint binds to.");
  flags.addString("rest-config-qps", 0, &raw.qps,
                  "Maximum QPS to the API server from this client (default: 100 if the API "
                  "server has API Priority and Fairness, else 5).");
  flags.addString("rest-config-burst", 0, &raw.burst,
                  "Maximum burst for throttle to the API server from this client (default: 200 "
                  "if the API server has API Priority and Fairness, else 10).");
  flags.addString("member-client-qps", 0, &raw.member_qps,
                  "Maximum QPS to each member cluster's API server (KubeFed's fixed value: 20).");
  flags.addString("member-client-burst", 0, &raw.member_burst,
                  "Maximum burst for throttle to each member cluster's API server (KubeFed's "
                  "fixed value: 30).");
  flags.addString("feature-gates", 0, &o.feature_gates,
                  "A set of key=value pairs that describe feature gates; they override the "
                  "KubeFedConfig's featureGates.");
  flags.addBool("leader-elect", 0, &o.leader_elect,
                "Run controllers only while holding the leader-election lease.");
  flags.addString("leader-elect-lease-duration", 0, &raw.lease_duration,
                  "Overrides KubeFedConfig spec.leaderElect.leaseDuration.");
  flags.addString("leader-elect-renew-deadline", 0, &raw.renew_deadline,
                  "Overrides KubeFedConfig spec.leaderElect.renewDeadline.");
  flags.addString("leader-elect-retry-period", 0, &raw.retry_period,
                  "Overrides KubeFedConfig spec.leaderElect.retryPeriod.");
  flags.addString("sync-backoff-initial", 0, &raw.sync_initial_backoff,
                  "Delay before a failed sync reconcile of an object is retried; doubles with "
                  "each further failure.");
  flags.addString("sync-backoff-max", 0, &raw.sync_max_backoff,
                  "Longest delay between retries of a failing sync reconcile.");
  flags.addBool("version", 0, &o.print_version, "Prints the version info of controller manager.");
  raw.log.addTo(flags);
}

// A flag's value, or nothing when it was not given (as for the string flags).
template <class T>
std::string givenValue(const std::optional<T>& value) {
  if (!value) return "";
  std::ostringstream out;
  out << *value;
  return out.str();
}

}  // namespace

Result<Options> parseOptions(const std::vector<std::string>& args, const char* default_scope_env,
                             const char* wait_for_config_env) {
  Options o;
  RawFlags raw;
  cli::FlagSet flags;
  declare(flags, o, raw);
  std::ostringstream warnings;
  if (!flags.parse(args, warnings)) return makeError(Reason::kBadConfig, flags.error());
  o.help = flags.helpRequested();
  if (!flags.positional().empty()) {
    return makeError(Reason::kBadConfig,
                     "unexpected argument \"" + flags.positional().front() +
                         "\": the controller manager takes flags only (see --help)");
  }
  if (flags.changed("rest-config-qps")) {
    KF_TRY(qps, parseDouble("rest-config-qps", raw.qps));
    o.rest_config_qps = qps;
  }
  if (flags.changed("rest-config-burst")) {
    KF_TRY(burst, parseInt("rest-config-burst", raw.burst));
    o.rest_config_burst = burst;
  }
  KF_TRY(member_qps, parseDouble("member-client-qps", raw.member_qps));
  KF_TRY(member_burst, parseInt("member-client-burst", raw.member_burst));
  if (!(member_qps > 0)) {
    return badFlag("member-client-qps", raw.member_qps, "must be greater than 0");
  }
  if (member_burst < 1) {
    return badFlag("member-client-burst", raw.member_burst, "must be at least 1");
  }
  KF_TRY(logging, cli::logSettings(raw.log));
  KF_TRY(lease, parseDuration("leader-elect-lease-duration", raw.lease_duration));
  KF_TRY(renew, parseDuration("leader-elect-renew-deadline", raw.renew_deadline));
  KF_TRY(retry, parseDuration("leader-elect-retry-period", raw.retry_period));
  KF_TRY(initial_backoff, parseDuration("sync-backoff-initial", raw.sync_initial_backoff));
  KF_TRY(max_backoff, parseDuration("sync-backoff-max", raw.sync_max_backoff));
  o.sync_initial_backoff = initial_backoff.value_or(o.sync_initial_backoff);
  o.sync_max_backoff = max_backoff.value_or(o.sync_max_backoff);
  if (o.sync_max_backoff < o.sync_initial_backoff) {
    return badFlag(
        "sync-backoff-max", raw.sync_max_backoff,
        "must not be shorter than --sync-backoff-initial (" + raw.sync_initial_backoff + ")");
  }
  o.member_client_qps = member_qps;
  o.member_client_burst = member_burst;
  o.verbosity = logging.verbosity;
  o.logging = std::move(logging);
  o.leader_elect_lease_duration = lease;
  o.leader_elect_renew_deadline = renew;
  o.leader_elect_retry_period = retry;

  o.default_scope = default_scope_env == nullptr ? "" : default_scope_env;
  if (!o.default_scope.empty() && o.default_scope != "Cluster" && o.default_scope != "Namespaced") {
    return makeError(Reason::kBadConfig, "invalid DEFAULT_KUBEFED_SCOPE \"" + o.default_scope +
                                             "\": must be Cluster or Namespaced");
  }
  const std::string wait = wait_for_config_env == nullptr ? "" : wait_for_config_env;
  if (!wait.empty() && wait != "true" && wait != "false") {
    return makeError(Reason::kBadConfig,
                     "invalid WAIT_FOR_KUBEFED_CONFIG \"" + wait + "\": must be true or false");
  }
  o.wait_for_kubefed_config = wait == "true";
  return o;
}

std::string describeFlags(const Options& o) {
  std::ostringstream out;
  out << "--kubefed-namespace=" << o.kubefed_namespace << " --kubeconfig=" << o.kubeconfig
      << " --master=" << o.master << " --kubefed-config=" << o.kubefed_config
      << " --healthz-addr=" << o.healthz_addr << " --metrics-addr=" << o.metrics_addr
      << " --rest-config-qps=" << givenValue(o.rest_config_qps)
      << " --rest-config-burst=" << givenValue(o.rest_config_burst)
      << " --member-client-qps=" << o.member_client_qps
      << " --member-client-burst=" << o.member_client_burst
      << " --feature-gates=" << o.feature_gates << " --leader-elect=" << std::boolalpha
      << o.leader_elect << " --v=" << o.verbosity;
  return out.str();
}

std::string usage() {
  Options o;
  RawFlags raw;
  cli::FlagSet flags;
  flags.setCommandName("controller-manager");
  declare(flags, o, raw);
  std::ostringstream out;
  cli::printHelp("controller-manager",
                 {"", "",
                  "The KubeFed controller manager runs a bunch of controllers which watch "
                  "federated resources and propagate them to member clusters.",
                  ""},
                 flags, out);
  return out.str();
}

std::string versionLine() { return "KubeFed controller-manager version: " + cli::versionInfo(); }

}  // namespace kf::manager
