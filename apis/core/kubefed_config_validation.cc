#include <chrono>
#include <set>

#include "apis/core/validation.h"
#include "apis/meta/name_validation.h"

namespace kf::core {

using meta::BadValue;
using meta::Duration;
using meta::ErrorList;
using meta::FieldPath;

namespace {

// client-go leaderelection.JitterFactor: the elector retries within retryPeriod * 1.2.
constexpr double kJitterFactor = 1.2;

ErrorList validateDurationPositive(const std::optional<Duration>& duration, const FieldPath& path) {
  if (!duration) return {meta::required(path)};
  if (duration->value().count() > 0) return {};
  // KubeFed compares (and prints) the duration as int64 nanoseconds here.
  return {
      meta::invalid(path, BadValue::number(duration->value().count()), "should be greater than 0")};
}

ErrorList validateIntPositive(const std::optional<std::int64_t>& value, const FieldPath& path) {
  if (!value) return {meta::required(path)};
  if (*value > 0) return {};
  return {meta::invalid(path, BadValue::number(*value), "should be greater than 0")};
}

ErrorList validateScope(const KubeFedConfigSpec& spec, const KubeFedConfigSpec* old_spec,
                        const FieldPath& path) {
  static const std::vector<std::string> kScopes{std::string(kScopeCluster),
                                                std::string(kScopeNamespaced)};
  ErrorList errors = meta::validateEnumString(spec.scope, path, kScopes);
  if (old_spec != nullptr && spec.scope != old_spec->scope) {
    errors.push_back(meta::invalid(path, BadValue::quoted(spec.scope), "field is immutable"));
  }
  return errors;
}

ErrorList validateControllerDuration(const std::optional<DurationConfig>& config,
                                     const FieldPath& path) {
  if (!config) return {meta::required(path)};
  ErrorList errors =
      validateDurationPositive(config->available_delay, path.child("availableDelay"));
  meta::append(errors,
               validateDurationPositive(config->unavailable_delay, path.child("unavailableDelay")));
  return errors;
}

// leaseDuration > renewDeadline > retryPeriod * JitterFactor, as client-go's elector demands.
ErrorList validateElectionTimings(const LeaderElectConfig& config, const FieldPath& path) {
  ErrorList errors;
  if (config.lease_duration && config.renew_deadline &&
      config.lease_duration->value() <= config.renew_deadline->value()) {
    errors.push_back(
        meta::invalid(path.child("leaseDuration"),
                      BadValue::bare(meta::formatGoDuration(config.lease_duration->value())),
                      "leaseDuration must be greater than renewDeadline"));
  }
  if (config.renew_deadline && config.retry_period) {
    const auto jittered = std::chrono::nanoseconds(static_cast<std::int64_t>(
        static_cast<double>(config.retry_period->value().count()) * kJitterFactor));
    if (config.renew_deadline->value() <= jittered) {
      errors.push_back(
          meta::invalid(path.child("renewDeadline"),
                        BadValue::bare(meta::formatGoDuration(config.renew_deadline->value())),
                        "renewDeadline must be greater than "
                        "retryPeriod*JitterFactor(1.2)"));
    }
  }
  return errors;
}

ErrorList validateLeaderElect(const std::optional<LeaderElectConfig>& config,
                              const FieldPath& path) {
  static const std::vector<std::string> kLocks{
      std::string(kResourceLockConfigMaps), std::string(kResourceLockEndpoints),
      std::string(kResourceLockLeases), std::string(kResourceLockConfigMapsLeases),
      std::string(kResourceLockEndpointsLeases)};
  if (!config) return {meta::required(path)};
  ErrorList errors = validateDurationPositive(config->lease_duration, path.child("leaseDuration"));
  meta::append(errors,
               validateDurationPositive(config->renew_deadline, path.child("renewDeadline")));
  meta::append(errors, validateDurationPositive(config->retry_period, path.child("retryPeriod")));
  meta::append(errors, validateElectionTimings(*config, path));
  if (!config->resource_lock) {
    errors.push_back(meta::required(path.child("resourceLock")));
  } else {
    meta::append(errors, meta::validateEnumString(*config->resource_lock,
                                                  path.child("resourceLock"), kLocks));
  }
  return errors;
}

// Errors name "featureGates.name" without an index, as KubeFed reports them.
ErrorList validateFeatureGates(const std::optional<std::vector<FeatureGateConfig>>& gates,
                               const FieldPath& path) {
  if (!gates) return {meta::required(path)};
  std::vector<std::string> known;
  for (const auto& gate : knownFeatureGates()) known.emplace_back(gate.name);
  const std::vector<std::string> modes{std::string(kEnabled), std::string(kDisabled)};
  ErrorList errors;
  std::set<std::string> seen;
  for (const auto& gate : *gates) {
    if (!seen.insert(gate.name).second) {
      errors.push_back(meta::duplicate(path.child("name"), gate.name));
      continue;
    }
    meta::append(errors, meta::validateEnumString(gate.name, path.child("name"), known));
    meta::append(errors,
                 meta::validateEnumString(gate.configuration, path.child("configuration"), modes));
  }
  return errors;
}

ErrorList validateHealthCheck(const std::optional<ClusterHealthCheckConfig>& config,
                              const FieldPath& path) {
  if (!config) return {meta::required(path)};
  ErrorList errors = validateDurationPositive(config->period, path.child("period"));
  meta::append(errors,
               validateIntPositive(config->failure_threshold, path.child("failureThreshold")));
  meta::append(errors,
               validateIntPositive(config->success_threshold, path.child("successThreshold")));
  meta::append(errors, validateDurationPositive(config->timeout, path.child("timeout")));
  return errors;
}

// QUIRK (§1.3): maxConcurrentReconciles and the adoptResources value are only checked when
// adoptResources is present, so a missing adoptResources hides a bad concurrency.
ErrorList validateSyncController(const std::optional<SyncControllerConfig>& config,
                                 const FieldPath& path) {
  if (!config) return {meta::required(path)};
  const FieldPath adopt = path.child("adoptResources");
  if (!config->adopt_resources) return {meta::required(adopt)};
  ErrorList errors =
      validateIntPositive(config->max_concurrent_reconciles, path.child("maxConcurrentReconciles"));
  meta::append(errors, meta::validateEnumString(*config->adopt_resources, adopt,
                                                {std::string(kEnabled), std::string(kDisabled)}));
  return errors;
}

ErrorList validateStatusController(const std::optional<StatusControllerConfig>& config,
                                   const FieldPath& path) {
  if (!config) return {meta::required(path)};
  return validateIntPositive(config->max_concurrent_reconciles,
                             path.child("maxConcurrentReconciles"));
}

}  // namespace

ErrorList validateKubeFedConfig(const KubeFedConfig& config, const KubeFedConfig* old_config) {
  const KubeFedConfigSpec& spec = config.spec;
  const FieldPath path("spec");
  ErrorList errors =
      validateScope(spec, old_config ? &old_config->spec : nullptr, path.child("scope"));
  meta::append(errors, validateControllerDuration(spec.controller_duration,
                                                  path.child("controllerDuration")));
  meta::append(errors, validateLeaderElect(spec.leader_elect, path.child("leaderElect")));
  meta::append(errors, validateFeatureGates(spec.feature_gates, path.child("featureGates")));
  meta::append(errors,
               validateHealthCheck(spec.cluster_health_check, path.child("clusterHealthCheck")));
  meta::append(errors, validateSyncController(spec.sync_controller, path.child("syncController")));
  meta::append(errors,
               validateStatusController(spec.status_controller, path.child("statusController")));
  return errors;
}

}  // namespace kf::core
