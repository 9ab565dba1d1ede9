#include "federation/controller/control_plane_config.h"

#include <utility>

#include "apis/core/federated_type_config.h"
#include "apis/meta/duration.h"

namespace kf {

namespace {

Duration valueOr(const std::optional<meta::Duration>& value, Duration fallback) {
  return value ? value->value() : fallback;
}

void readDurations(const core::KubeFedConfigSpec& spec, ControlPlaneConfig& out) {
  const auto& durations = *spec.controller_duration;
  out.cluster_available_delay = valueOr(durations.available_delay, out.cluster_available_delay);
  out.cluster_unavailable_delay =
      valueOr(durations.unavailable_delay, out.cluster_unavailable_delay);
  const auto& election = *spec.leader_elect;
  out.lease_duration = valueOr(election.lease_duration, out.lease_duration);
  out.renew_deadline = valueOr(election.renew_deadline, out.renew_deadline);
  out.retry_period = valueOr(election.retry_period, out.retry_period);
  out.resource_lock = election.resource_lock.value_or(out.resource_lock);
  const auto& health = *spec.cluster_health_check;
  out.health_period = valueOr(health.period, out.health_period);
  out.health_timeout = valueOr(health.timeout, out.health_timeout);
  out.health_failure_threshold = static_cast<int>(health.failure_threshold.value_or(3));
  out.health_success_threshold = static_cast<int>(health.success_threshold.value_or(1));
}

}  // namespace

Result<ControlPlaneConfig> controlPlaneConfigOf(const core::KubeFedConfig& config,
                                                const std::string& kubefed_namespace,
                                                std::string_view feature_gates_flag,
                                                FeatureGate& gates,
                                                std::vector<std::string>* warnings) {
  const auto& spec = config.spec;
  ControlPlaneConfig out;
  out.kubefed_namespace = kubefed_namespace;
  out.namespaced_scope = spec.scope == core::kScopeNamespaced;
  out.target_namespace = out.namespaced_scope ? kubefed_namespace : "";
  readDurations(spec, out);
  out.sync_max_concurrent_reconciles =
      static_cast<int>(spec.sync_controller->max_concurrent_reconciles.value_or(1));
  out.skip_adopting_resources = spec.sync_controller->adopt_resources == core::kDisabled;
  out.status_max_concurrent_reconciles =
      static_cast<int>(spec.status_controller->max_concurrent_reconciles.value_or(1));

  std::vector<std::pair<std::string, std::string>> config_gates;
  for (const auto& gate : spec.feature_gates.value_or(std::vector<core::FeatureGateConfig>{})) {
    config_gates.emplace_back(gate.name, gate.configuration);
  }
  if (auto applied = applyKubeFedConfigThenFlag(gates, config_gates, feature_gates_flag, warnings);
      !applied) {
    return makeError(Reason::kBadConfig, "Invalid Feature Gate: " + applied.error().message);
  }
  out.push_reconciler = gates.enabled(features::kPushReconciler);
  out.scheduler_preferences = gates.enabled(features::kSchedulerPreferences);
  out.raw_resource_status_collection = gates.enabled(features::kRawResourceStatusCollection);
  return out;
}

}  // namespace kf
