#pragma once
// The host client's rate limits. KubeFed always runs at QPS 5 / burst 10 unless
// --rest-config-qps/--rest-config-burst say otherwise; at those limits the four host writes per
// new federated object cap propagation at about 1.25 objects per second. A host API server with
// API Priority and Fairness protects itself from a busy client, so there the default is higher.
// Either flag, when given, wins.

#include <optional>
#include <string>

#include "cmd/controller-manager/options.h"
#include "federation/client/rest_client.h"
#include "federation/client/transport.h"

namespace kf::manager {

inline constexpr double kKubeFedHostQps = 5.0;
inline constexpr int kKubeFedHostBurst = 10;
// Measured: at QPS 100 propagation kept pace with the members' own limits (README, "Host writes
// per federated object, and the default host limits"); higher rates were no faster.
inline constexpr double kPriorityAndFairnessHostQps = 100.0;
inline constexpr int kPriorityAndFairnessHostBurst = 200;

struct HostLimits {
  double qps = kKubeFedHostQps;
  int burst = kKubeFedHostBurst;
  std::string why;  // for the start-up line: which rule chose these limits
};

// Whether `response` came through API Priority and Fairness, whose filter names the FlowSchema
// and the priority level that classified the request in every response.
bool carriesPriorityAndFairnessHeaders(const HttpResponse& response);

// Whether the server `host` talks to has API Priority and Fairness, from one GET /version
// (readable by every user, so it needs no RBAC of ours).
Result<bool> hostHasPriorityAndFairness(RestClient& host);

// Whether --rest-config-qps or --rest-config-burst was given.
bool hostLimitFlagsGiven(const Options& options);

// The limits for the host client: the flags when either is given (KubeFed's default for the other
// one, and for a value that is not positive, as KubeFed applies only positive values); else
// QPS 100 / burst 200 when the host has API Priority and Fairness, KubeFed's 5/10 when it has not
// or when that could not be found out (`has_priority_and_fairness` holds the error).
HostLimits chooseHostLimits(const Options& options, const Result<bool>& has_priority_and_fairness);

// chooseHostLimits(), asking `host` only when no flag decides.
HostLimits decideHostLimits(const Options& options, RestClient& host);

// "Host client limits: QPS 100, burst 200 (<why>)", logged once at start-up.
std::string describeHostLimits(const HostLimits& limits);

// `config` with the limits applied.
RestConfig withHostLimits(RestConfig config, const HostLimits& limits);

}  // namespace kf::manager
