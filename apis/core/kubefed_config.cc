#include "apis/core/kubefed_config.h"

#include <algorithm>
#include <chrono>

#include "apis/core/federated_type_config.h"

namespace kf::core {

using meta::Duration;
using meta::FieldPath;
using meta::ObjectReader;
using std::chrono::seconds;

namespace {

Result<std::optional<Duration>> readDuration(ObjectReader& reader, std::string_view key) {
  KF_TRY(text, reader.optString(key));
  if (!text) return std::optional<Duration>();
  auto parsed = Duration::parse(*text);
  if (!parsed) {
    return meta::decodeError(reader.path(key), "time: invalid duration " + meta::goQuote(*text));
  }
  return std::optional<Duration>(std::move(*parsed));
}

void putDuration(Json& out, const char* key, const std::optional<Duration>& value) {
  if (value) out[key] = value->text();
}

Result<DurationConfig> readDurationConfig(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  DurationConfig out;
  KF_TRY(available, readDuration(reader, "availableDelay"));
  KF_TRY(unavailable, readDuration(reader, "unavailableDelay"));
  out.available_delay = std::move(available);
  out.unavailable_delay = std::move(unavailable);
  out.extra = reader.rest();
  return out;
}

Json writeDurationConfig(const DurationConfig& config) {
  Json out = meta::baseObject(config.extra);
  putDuration(out, "availableDelay", config.available_delay);
  putDuration(out, "unavailableDelay", config.unavailable_delay);
  return out;
}

Result<LeaderElectConfig> readLeaderElect(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  LeaderElectConfig out;
  KF_TRY(lease, readDuration(reader, "leaseDuration"));
  KF_TRY(renew, readDuration(reader, "renewDeadline"));
  KF_TRY(retry, readDuration(reader, "retryPeriod"));
  KF_TRY(lock, reader.optString("resourceLock"));
  out.lease_duration = std::move(lease);
  out.renew_deadline = std::move(renew);
  out.retry_period = std::move(retry);
  out.resource_lock = std::move(lock);
  out.extra = reader.rest();
  return out;
}

Json writeLeaderElect(const LeaderElectConfig& config) {
  Json out = meta::baseObject(config.extra);
  putDuration(out, "leaseDuration", config.lease_duration);
  putDuration(out, "renewDeadline", config.renew_deadline);
  putDuration(out, "retryPeriod", config.retry_period);
  meta::putIfSet(out, "resourceLock", config.resource_lock);
  return out;
}

Result<FeatureGateConfig> readFeatureGate(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KF_TRY(name, reader.string("name"));
  KF_TRY(configuration, reader.string("configuration"));
  return FeatureGateConfig{std::move(name), std::move(configuration), reader.rest()};
}

Json writeFeatureGate(const FeatureGateConfig& gate) {
  Json out = meta::baseObject(gate.extra);
  out["name"] = gate.name;
  out["configuration"] = gate.configuration;
  return out;
}

Result<ClusterHealthCheckConfig> readHealthCheck(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  ClusterHealthCheckConfig out;
  KF_TRY(period, readDuration(reader, "period"));
  KF_TRY(failure, reader.optInt64("failureThreshold"));
  KF_TRY(success, reader.optInt64("successThreshold"));
  KF_TRY(timeout, readDuration(reader, "timeout"));
  out.period = std::move(period);
  out.failure_threshold = failure;
  out.success_threshold = success;
  out.timeout = std::move(timeout);
  out.extra = reader.rest();
  return out;
}

Json writeHealthCheck(const ClusterHealthCheckConfig& config) {
  Json out = meta::baseObject(config.extra);
  putDuration(out, "period", config.period);
  meta::putIfSet(out, "failureThreshold", config.failure_threshold);
  meta::putIfSet(out, "successThreshold", config.success_threshold);
  putDuration(out, "timeout", config.timeout);
  return out;
}

Result<SyncControllerConfig> readSyncController(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KF_TRY(max, reader.optInt64("maxConcurrentReconciles"));
  KF_TRY(adopt, reader.optString("adoptResources"));
  return SyncControllerConfig{max, std::move(adopt), reader.rest()};
}

Json writeSyncController(const SyncControllerConfig& config) {
  Json out = meta::baseObject(config.extra);
  meta::putIfSet(out, "maxConcurrentReconciles", config.max_concurrent_reconciles);
  meta::putIfSet(out, "adoptResources", config.adopt_resources);
  return out;
}

Result<StatusControllerConfig> readStatusController(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KF_TRY(max, reader.optInt64("maxConcurrentReconciles"));
  return StatusControllerConfig{max, reader.rest()};
}

Json writeStatusController(const StatusControllerConfig& config) {
  Json out = meta::baseObject(config.extra);
  meta::putIfSet(out, "maxConcurrentReconciles", config.max_concurrent_reconciles);
  return out;
}

// Reads an optional section with `read`; absent or null stays nullopt.
template <class T, class ReadFn>
Result<std::optional<T>> readSection(ObjectReader& reader, std::string_view key, ReadFn read) {
  const Json* value = reader.optValue(key);
  if (value == nullptr) return std::optional<T>();
  KF_TRY(section, read(*value, reader.path(key)));
  return std::optional<T>(std::move(section));
}

}  // namespace

Result<KubeFedConfigSpec> KubeFedConfigSpec::fromJson(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  KubeFedConfigSpec out;
  KF_TRY(scope, reader.string("scope"));
  out.scope = std::move(scope);
  KF_TRY(durations, readSection<DurationConfig>(reader, "controllerDuration", readDurationConfig));
  out.controller_duration = std::move(durations);
  KF_TRY(elect, readSection<LeaderElectConfig>(reader, "leaderElect", readLeaderElect));
  out.leader_elect = std::move(elect);
  KF_TRY(gates, readSection<std::vector<FeatureGateConfig>>(
                    reader, "featureGates", [](const Json& value, const FieldPath& at) {
                      return meta::readArray<FeatureGateConfig>(value, at, readFeatureGate);
                    }));
  out.feature_gates = std::move(gates);
  KF_TRY(health,
         readSection<ClusterHealthCheckConfig>(reader, "clusterHealthCheck", readHealthCheck));
  out.cluster_health_check = std::move(health);
  KF_TRY(sync, readSection<SyncControllerConfig>(reader, "syncController", readSyncController));
  out.sync_controller = std::move(sync);
  KF_TRY(status,
         readSection<StatusControllerConfig>(reader, "statusController", readStatusController));
  out.status_controller = std::move(status);
  out.extra = reader.rest();
  return out;
}

Json KubeFedConfigSpec::toJson() const {
  Json out = meta::baseObject(extra);
  out["scope"] = scope;
  if (controller_duration) out["controllerDuration"] = writeDurationConfig(*controller_duration);
  if (leader_elect) out["leaderElect"] = writeLeaderElect(*leader_elect);
  if (feature_gates) {
    Json gates = Json::array();
    for (const auto& gate : *feature_gates) gates.push_back(writeFeatureGate(gate));
    out["featureGates"] = std::move(gates);
  }
  if (cluster_health_check) out["clusterHealthCheck"] = writeHealthCheck(*cluster_health_check);
  if (sync_controller) out["syncController"] = writeSyncController(*sync_controller);
  if (status_controller) out["statusController"] = writeStatusController(*status_controller);
  return out;
}

Result<KubeFedConfig> KubeFedConfig::fromJson(const Json& json) {
  KF_TRY(reader, ObjectReader::open(json, FieldPath()));
  KubeFedConfig out;
  KF_TRY(header, meta::readObjectHeader(reader));
  out.header = std::move(header);
  if (const Json* spec = reader.plainValue("spec")) {
    KF_TRY(value, KubeFedConfigSpec::fromJson(*spec, FieldPath("spec")));
    out.spec = std::move(value);
  }
  out.extra = reader.rest();
  return out;
}

Json KubeFedConfig::toJson() const {
  Json out = meta::baseObject(extra);
  meta::writeObjectHeader(header, out);
  out["spec"] = spec.toJson();
  return out;
}

const std::vector<FeatureGateDefault>& knownFeatureGates() {
  static const std::vector<FeatureGateDefault> gates{
      {kGatePushReconciler, true},
      {kGateRawResourceStatusCollection, false},
      {kGateSchedulerPreferences, true},
  };
  return gates;
}

namespace {

template <class T>
void setDefault(std::optional<T>& field, T value) {
  if (!field) field = std::move(value);
}

void setDurationDefault(std::optional<Duration>& field, std::chrono::nanoseconds value) {
  if (!field) field = Duration(value);
}

void defaultFeatureGates(std::optional<std::vector<FeatureGateConfig>>& gates) {
  if (!gates) gates.emplace();
  for (const auto& known : knownFeatureGates()) {
    const bool listed = std::any_of(gates->begin(), gates->end(), [&](const FeatureGateConfig& g) {
      return g.name == known.name;
    });
    if (!listed) {
      gates->push_back(FeatureGateConfig{std::string(known.name),
                                         std::string(known.enabled ? kEnabled : kDisabled),
                                         Json::object()});
    }
  }
  std::stable_sort(
      gates->begin(), gates->end(),
      [](const FeatureGateConfig& a, const FeatureGateConfig& b) { return a.name < b.name; });
}

}  // namespace

void setKubeFedConfigDefaults(KubeFedConfig& config) {
  KubeFedConfigSpec& spec = config.spec;

  setDefault(spec.controller_duration, DurationConfig{});
  setDurationDefault(spec.controller_duration->available_delay, seconds(20));
  setDurationDefault(spec.controller_duration->unavailable_delay, seconds(60));

  setDefault(spec.leader_elect, LeaderElectConfig{});
  setDurationDefault(spec.leader_elect->lease_duration, seconds(15));
  setDurationDefault(spec.leader_elect->renew_deadline, seconds(10));
  setDurationDefault(spec.leader_elect->retry_period, seconds(5));
  setDefault(spec.leader_elect->resource_lock, std::string(kResourceLockConfigMaps));

  defaultFeatureGates(spec.feature_gates);

  setDefault(spec.cluster_health_check, ClusterHealthCheckConfig{});
  setDurationDefault(spec.cluster_health_check->period, seconds(10));
  setDefault(spec.cluster_health_check->failure_threshold, std::int64_t{3});
  setDefault(spec.cluster_health_check->success_threshold, std::int64_t{1});
  setDurationDefault(spec.cluster_health_check->timeout, seconds(3));

  setDefault(spec.sync_controller, SyncControllerConfig{});
  setDefault(spec.sync_controller->max_concurrent_reconciles, std::int64_t{1});
  setDefault(spec.sync_controller->adopt_resources, std::string(kEnabled));

  setDefault(spec.status_controller, StatusControllerConfig{});
  setDefault(spec.status_controller->max_concurrent_reconciles, std::int64_t{1});
}

namespace {

void useGoText(std::optional<Duration>& duration) {
  if (duration) duration->setValue(duration->value());  // forgets the text it was read from
}

}  // namespace

void useGoDurationText(KubeFedConfigSpec& spec) {
  if (auto& delays = spec.controller_duration) {
    useGoText(delays->available_delay);
    useGoText(delays->unavailable_delay);
  }
  if (auto& elect = spec.leader_elect) {
    useGoText(elect->lease_duration);
    useGoText(elect->renew_deadline);
    useGoText(elect->retry_period);
  }
  if (auto& health = spec.cluster_health_check) {
    useGoText(health->period);
    useGoText(health->timeout);
  }
}

}  // namespace kf::core
