#pragma once
// Member-cluster health as KubeFed reports it (spec §2.4): the conditions one probe of /healthz
// yields, and the threshold smoothing that decides which conditions are written. Pure functions
// on plain values; the KubeFedCluster controller does the I/O.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "apis/core/kubefed_cluster.h"
#include "apis/meta/api_error.h"

namespace kf {

using SystemTime = std::chrono::system_clock::time_point;

// What one GET /healthz gave: the body of a 2xx response, or the error (transport failure or
// non-2xx status).
using HealthzOutcome = Result<std::string>;

enum class ClusterHealth {
  kReady,     // /healthz answered "ok"
  kNotReady,  // reachable, but /healthz answered something else
  kOffline,   // not reachable, or /healthz failed
};

// KubeFed's reasons and messages.
inline constexpr std::string_view kReasonClusterReady = "ClusterReady";
inline constexpr std::string_view kReasonClusterNotReady = "ClusterNotReady";
inline constexpr std::string_view kReasonClusterReachable = "ClusterReachable";
inline constexpr std::string_view kReasonClusterNotReachable = "ClusterNotReachable";
inline constexpr std::string_view kMessageHealthzOk = "/healthz responded with ok";
inline constexpr std::string_view kMessageHealthzNotOk = "/healthz responded without ok";
inline constexpr std::string_view kMessageReachable = "cluster is reachable";
inline constexpr std::string_view kMessageNotReachable = "cluster is not reachable";

ClusterHealth classifyProbe(const HealthzOutcome& outcome);

// The conditions for one probe, every time set to `now`:
//   ok:       [Ready=True ClusterReady]
//   not ok:   [Ready=False ClusterNotReady, Offline=False ClusterReachable]
//   error:    [Offline=True ClusterNotReachable] (no Ready condition)
std::vector<core::ClusterCondition> conditionsForProbe(const HealthzOutcome& outcome,
                                                       SystemTime now);

// "cluster is not reachable: <what>", where <what> tells a TLS verification failure, a rejected
// token, a refused or unreachable endpoint and a timeout apart. Never contains credentials. The
// Offline condition's message is KubeFed's, without the cause: this goes to the log and the
// ClusterOffline event.
std::string unreachableMessage(const ApiError& error);

// The status conditions of a KubeFedCluster object (none when its status is absent or
// unreadable).
std::vector<core::ClusterCondition> clusterConditionsOf(const Json& kubefed_cluster);

// Ready means a condition Ready=True (spec §2.2).
bool isClusterReady(const std::vector<core::ClusterCondition>& conditions);
// The state conditions describe; nullopt when they say nothing (no status yet).
std::optional<ClusterHealth> healthOf(const std::vector<core::ClusterCondition>& conditions);
const char* healthName(ClusterHealth health);  // "ready", "notready", "offline"

// metav1.Time as the API writes it: RFC 3339 in UTC, whole seconds ("2024-05-01T10:00:00Z").
std::string formatConditionTime(SystemTime time);

struct HealthThresholds {
  int failure = 3;  // contrary not-ready probes before a ready cluster is reported not ready
  int success = 1;  // contrary ready probes before a not-ready cluster is reported ready
};

// What smoothing remembers per cluster between probes.
struct SmoothingState {
  std::vector<core::ClusterCondition> conditions;  // the last effective (written) conditions
  int run = 0;  // probes since the last effective readiness change, this one included
};

// Applies KubeFed's threshold smoothing to a new probe's conditions and returns the conditions
// to write, updating `state` (empty before the first probe):
// - first probe: used as is; run = 1.
// - threshold = failure if the probe is not ready, else success.
// - run < threshold: the stored conditions stay, with the new probe time.
// - otherwise the probe's conditions, keeping the stored transition time if readiness did not
//   change.
// - run + 1 if the effective readiness equals the stored one, else run = 1.
// QUIRK (kept on purpose): the run counts probes since the last effective change, so a cluster
// that has been stable for `threshold` probes flips on a single contrary probe.
std::vector<core::ClusterCondition> smoothProbe(std::optional<SmoothingState>& state,
                                                std::vector<core::ClusterCondition> probed,
                                                HealthThresholds thresholds);

}  // namespace kf
