#include "federation/cluster/health.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>

#include "apis/meta/time.h"

namespace kf {
namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

core::ClusterCondition makeCondition(std::string_view type, std::string_view status,
                                     std::string_view reason, std::string message,
                                     const std::string& now) {
  core::ClusterCondition condition;
  condition.type = type;
  condition.status = status;
  condition.last_probe_time = now;
  condition.last_transition_time = now;
  condition.reason = std::string(reason);
  condition.message = std::move(message);
  return condition;
}

// One line of at most kMaxDetail characters: a failing /healthz answers with a multi-line report.
std::string oneLine(const std::string& text) {
  constexpr std::size_t kMaxDetail = 300;
  std::string out;
  for (const char c : text) {
    if (out.size() >= kMaxDetail) {
      out += "...";
      break;
    }
    if (c == '\n' || c == '\r') {
      if (!out.empty() && out.back() != ' ') out += "; ";
    } else {
      out += c;
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  return out;
}

// What went wrong, in words a cluster operator can act on.
std::string unreachableCause(const ApiError& error) {
  switch (error.reason) {
    case Reason::kTlsVerification:
      return "TLS verification of the API server's certificate failed: " + error.message;
    case Reason::kUnauthorized:
      return "authentication failed (401 Unauthorized): the API server rejected the bearer "
             "token; check the token in the cluster's Secret";
    case Reason::kForbidden:
      return "access to /healthz denied (403 Forbidden): allow the token's identity to get "
             "/healthz";
    case Reason::kConnectionFailed:
      return "cannot connect: " + error.message;
    case Reason::kClientTimeout:
      return "timed out: " + error.message;
    default:
      return "/healthz failed: " + oneLine(error.describe());
  }
}

}  // namespace

ClusterHealth classifyProbe(const HealthzOutcome& outcome) {
  if (!outcome) return ClusterHealth::kOffline;
  return equalsIgnoringCase(outcome.value(), "ok") ? ClusterHealth::kReady
                                                   : ClusterHealth::kNotReady;
}

std::vector<core::ClusterCondition> conditionsForProbe(const HealthzOutcome& outcome,
                                                       SystemTime now) {
  const std::string time = formatConditionTime(now);
  switch (classifyProbe(outcome)) {
    case ClusterHealth::kReady:
      return {makeCondition(core::kClusterReady, "True", kReasonClusterReady,
                            std::string(kMessageHealthzOk), time)};
    case ClusterHealth::kNotReady:
      return {makeCondition(core::kClusterReady, "False", kReasonClusterNotReady,
                            std::string(kMessageHealthzNotOk), time),
              makeCondition(core::kClusterOffline, "False", kReasonClusterReachable,
                            std::string(kMessageReachable), time)};
    case ClusterHealth::kOffline:
      break;
  }
  return {makeCondition(core::kClusterOffline, "True", kReasonClusterNotReachable,
                        std::string(kMessageNotReachable), time)};
}

std::string unreachableMessage(const ApiError& error) {
  return std::string(kMessageNotReachable) + ": " + unreachableCause(error);
}

std::vector<core::ClusterCondition> clusterConditionsOf(const Json& kubefed_cluster) {
  const auto status = kubefed_cluster.find("status");
  if (status == kubefed_cluster.end() || !status->is_object()) return {};
  auto parsed = core::KubeFedClusterStatus::fromJson(*status, meta::FieldPath("status"));
  return parsed ? parsed.value().conditions : std::vector<core::ClusterCondition>{};
}

bool isClusterReady(const std::vector<core::ClusterCondition>& conditions) {
  return std::any_of(conditions.begin(), conditions.end(), [](const auto& condition) {
    return condition.type == core::kClusterReady && condition.status == "True";
  });
}

std::optional<ClusterHealth> healthOf(const std::vector<core::ClusterCondition>& conditions) {
  if (isClusterReady(conditions)) return ClusterHealth::kReady;
  for (const auto& condition : conditions) {
    if (condition.type == core::kClusterOffline && condition.status == "True") {
      return ClusterHealth::kOffline;
    }
  }
  for (const auto& condition : conditions) {
    if (condition.type == core::kClusterReady) return ClusterHealth::kNotReady;
  }
  return std::nullopt;
}

const char* healthName(ClusterHealth health) {
  switch (health) {
    case ClusterHealth::kReady:
      return "ready";
    case ClusterHealth::kNotReady:
      return "notready";
    case ClusterHealth::kOffline:
      return "offline";
  }
  return "offline";
}

std::string formatConditionTime(SystemTime time) { return meta::formatTime(time); }

std::vector<core::ClusterCondition> smoothProbe(std::optional<SmoothingState>& state,
                                                std::vector<core::ClusterCondition> probed,
                                                HealthThresholds thresholds) {
  if (!state || state->conditions.empty() || probed.empty()) {
    state = SmoothingState{probed, 1};
    return probed;
  }
  const bool probed_ready = isClusterReady(probed);
  const bool stored_ready = isClusterReady(state->conditions);
  const int threshold = probed_ready ? thresholds.success : thresholds.failure;
  std::vector<core::ClusterCondition> effective;
  if (state->run < threshold) {
    // Too few probes since the last change to believe this one: keep what was written.
    effective = state->conditions;
    for (auto& condition : effective) condition.last_probe_time = probed.front().last_probe_time;
  } else {
    effective = std::move(probed);
    if (probed_ready == stored_ready) {
      for (auto& condition : effective) {
        condition.last_transition_time = state->conditions.front().last_transition_time;
      }
    }
  }
  state->run = isClusterReady(effective) == stored_ready ? state->run + 1 : 1;
  state->conditions = effective;
  return effective;
}

}  // namespace kf
