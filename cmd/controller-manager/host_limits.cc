#include "cmd/controller-manager/host_limits.h"

#include <sstream>

namespace kf::manager {
namespace {

constexpr const char* kFlagsOverride = "--rest-config-qps/--rest-config-burst override";

HostLimits fromFlags(const Options& options) {
  HostLimits limits{.why =
                        "from --rest-config-qps/--rest-config-burst; KubeFed's 5/10 for one "
                        "not given"};
  if (options.rest_config_qps.value_or(0) > 0) limits.qps = *options.rest_config_qps;
  if (options.rest_config_burst.value_or(0) > 0) limits.burst = *options.rest_config_burst;
  return limits;
}

}  // namespace

bool carriesPriorityAndFairnessHeaders(const HttpResponse& response) {
  return response.header("x-kubernetes-pf-flowschema-uid").has_value() ||
         response.header("x-kubernetes-pf-prioritylevel-uid").has_value();
}

Result<bool> hostHasPriorityAndFairness(RestClient& host) {
  KF_TRY(response, host.send({.path = "/version"}));
  return carriesPriorityAndFairnessHeaders(response);
}

bool hostLimitFlagsGiven(const Options& options) {
  return options.rest_config_qps.has_value() || options.rest_config_burst.has_value();
}

HostLimits chooseHostLimits(const Options& options, const Result<bool>& has_priority_and_fairness) {
  if (hostLimitFlagsGiven(options)) return fromFlags(options);
  if (!has_priority_and_fairness) {
    return {.why =
                "KubeFed's defaults: cannot tell whether the host API server has API "
                "Priority and Fairness (" +
                has_priority_and_fairness.error().describe() + "); " + kFlagsOverride};
  }
  if (!has_priority_and_fairness.value()) {
    return {.why = std::string("KubeFed's defaults: the host API server has no API Priority and "
                               "Fairness; ") +
                   kFlagsOverride};
  }
  return {
      .qps = kPriorityAndFairnessHostQps,
      .burst = kPriorityAndFairnessHostBurst,
      .why = std::string("the host API server has API Priority and Fairness; ") + kFlagsOverride};
}

HostLimits decideHostLimits(const Options& options, RestClient& host) {
  // No request when the flags decide: the start-up then sends what KubeFed's sends.
  if (hostLimitFlagsGiven(options)) {
    return chooseHostLimits(options, /*has_priority_and_fairness=*/false);
  }
  return chooseHostLimits(options, hostHasPriorityAndFairness(host));
}

std::string describeHostLimits(const HostLimits& limits) {
  std::ostringstream out;
  out << "Host client limits: QPS " << limits.qps << ", burst " << limits.burst << " ("
      << limits.why << ")";
  return out.str();
}

RestConfig withHostLimits(RestConfig config, const HostLimits& limits) {
  config.qps = limits.qps;
  config.burst = limits.burst;
  return config;
}

}  // namespace kf::manager
