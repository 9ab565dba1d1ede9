#pragma once
// core.kubefed.io/v1beta1 KubeFedConfig: the controller manager's settings (spec §1.3). Every
// section and value is optional in the object; defaulting fills only what is missing.

#include <optional>
#include <string>
#include <vector>

#include "apis/meta/duration.h"
#include "apis/meta/object_header.h"

namespace kf::core {

inline constexpr std::string_view kResourceLockConfigMaps = "configmaps";
inline constexpr std::string_view kResourceLockEndpoints = "endpoints";
// Beyond KubeFed v0.8.1 (which accepts the two above): client-go's Lease lock, and its
// migration locks that write both objects.
inline constexpr std::string_view kResourceLockLeases = "leases";
inline constexpr std::string_view kResourceLockConfigMapsLeases = "configmapsleases";
inline constexpr std::string_view kResourceLockEndpointsLeases = "endpointsleases";
inline constexpr std::string_view kGatePushReconciler = "PushReconciler";
inline constexpr std::string_view kGateSchedulerPreferences = "SchedulerPreferences";
inline constexpr std::string_view kGateRawResourceStatusCollection = "RawResourceStatusCollection";

struct DurationConfig {
  std::optional<meta::Duration> available_delay;
  std::optional<meta::Duration> unavailable_delay;
  Json extra;
};

struct LeaderElectConfig {
  std::optional<meta::Duration> lease_duration;
  std::optional<meta::Duration> renew_deadline;
  std::optional<meta::Duration> retry_period;
  // "configmaps" | "endpoints" | "leases" | "configmapsleases" | "endpointsleases"
  std::optional<std::string> resource_lock;
  Json extra;
};

struct FeatureGateConfig {
  std::string name;
  std::string configuration;  // "Enabled" | "Disabled"
  Json extra;
};

struct ClusterHealthCheckConfig {
  std::optional<meta::Duration> period;
  std::optional<std::int64_t> failure_threshold;
  std::optional<std::int64_t> success_threshold;
  std::optional<meta::Duration> timeout;
  Json extra;
};

struct SyncControllerConfig {
  std::optional<std::int64_t> max_concurrent_reconciles;
  std::optional<std::string> adopt_resources;  // "Enabled" | "Disabled"
  Json extra;
};

struct StatusControllerConfig {
  std::optional<std::int64_t> max_concurrent_reconciles;
  Json extra;
};

struct KubeFedConfigSpec {
  std::string scope;  // "Cluster" | "Namespaced"
  std::optional<DurationConfig> controller_duration;
  std::optional<LeaderElectConfig> leader_elect;
  // nullopt (absent or null) and an empty list differ: validation requires a list.
  std::optional<std::vector<FeatureGateConfig>> feature_gates;
  std::optional<ClusterHealthCheckConfig> cluster_health_check;
  std::optional<SyncControllerConfig> sync_controller;
  std::optional<StatusControllerConfig> status_controller;
  Json extra;

  static Result<KubeFedConfigSpec> fromJson(const Json& json, const meta::FieldPath& path);
  Json toJson() const;
};

struct KubeFedConfig {
  meta::ObjectHeader header;
  KubeFedConfigSpec spec;
  Json extra;

  static Result<KubeFedConfig> fromJson(const Json& json);
  Json toJson() const;
};

struct FeatureGateDefault {
  std::string_view name;
  bool enabled;
};
// Every gate KubeFed knows, sorted by name, with its default.
const std::vector<FeatureGateDefault>& knownFeatureGates();

// The webhook defaulter: fills only missing values, appends every known gate missing from the
// list with its default, then sorts the list by name.
void setKubeFedConfigDefaults(KubeFedConfig& config);

// Every duration of the spec as Go's Duration.String() writes it ("60s" -> "1m0s"): KubeFed's
// defaulter marshals the whole spec it defaulted, so the spec it writes back reads so.
void useGoDurationText(KubeFedConfigSpec& spec);

}  // namespace kf::core
