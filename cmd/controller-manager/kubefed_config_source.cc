#include "cmd/controller-manager/kubefed_config_source.h"

#include <spdlog/spdlog.h>

#include <fstream>
#include <sstream>

#include "apis/core/validation.h"
#include "federation/client/resource_client.h"
#include "federation/crdgen/yaml_json.h"

namespace kf::manager {
namespace {

const GroupVersionResource kKubeFedConfigs{"core.kubefed.io", "v1beta1", "kubefedconfigs", true};

Result<core::KubeFedConfig> decode(const Json& json, const std::string& where) {
  auto config = core::KubeFedConfig::fromJson(json);
  if (!config) {
    return makeError(Reason::kBadConfig,
                     "cannot read KubeFedConfig " + where + ": " + config.error().message);
  }
  return std::move(config).value();
}

Result<core::KubeFedConfig> readFile(const std::string& path, const std::string& ns) {
  std::ifstream in(path);
  if (!in) {
    return makeError(Reason::kBadConfig, "cannot open --kubefed-config file \"" + path + "\"");
  }
  std::stringstream text;
  text << in.rdbuf();
  auto documents = yamlDocumentsToJson(text.str());
  if (!documents || documents.value().size() != 1) {
    return makeError(Reason::kBadConfig,
                     "--kubefed-config file \"" + path +
                         "\" must hold exactly one YAML document: " +
                         (documents ? "found " + std::to_string(documents.value().size())
                                    : documents.error().message));
  }
  Json json = documents.value().front();
  // The file's namespace is ignored: the config always belongs to the KubeFed namespace.
  json["metadata"]["namespace"] = ns;
  return decode(json, "from \"" + path + "\"");
}

Json newConfigObject(const std::string& ns, const std::string& scope) {
  core::KubeFedConfig config;
  config.spec.scope = scope;
  // KubeFed leaves defaulting to its mutating webhook; the object is defaulted here so that it
  // is complete also where no webhook runs.
  core::setKubeFedConfigDefaults(config);
  Json json = config.toJson();
  json["apiVersion"] = "core.kubefed.io/v1beta1";
  json["kind"] = "KubeFedConfig";
  json["metadata"] = {{"name", kKubeFedConfigName}, {"namespace", ns}};
  return json;
}

Result<core::KubeFedConfig> createConfig(ResourceClient& configs, const std::string& ns,
                                         const std::string& scope) {
  auto created = configs.create(newConfigObject(ns, scope));
  if (!created) {
    return makeError(created.error().reason, "cannot create KubeFedConfig \"" + ns + "/" +
                                                 kKubeFedConfigName +
                                                 "\": " + created.error().describe());
  }
  spdlog::info("Created KubeFedConfig \"{}/{}\" with scope {}", ns, kKubeFedConfigName, scope);
  return decode(created.value(), "as created");
}

Result<core::KubeFedConfig> readApi(RestClient& host, const std::string& ns,
                                    const std::string& default_scope) {
  ResourceClient configs(host, kKubeFedConfigs, ns);
  auto existing = configs.get(kKubeFedConfigName);
  if (!existing && isNotFound(existing.error())) {
    return createConfig(configs, ns, default_scope.empty() ? "Cluster" : default_scope);
  }
  if (!existing) {
    return makeError(existing.error().reason, "cannot read KubeFedConfig \"" + ns + "/" +
                                                  kKubeFedConfigName +
                                                  "\": " + existing.error().describe());
  }
  KF_TRY(config, decode(existing.value(), "\"" + ns + "/" + kKubeFedConfigName + "\""));
  if (!default_scope.empty() && config.spec.scope != default_scope) {
    // KubeFed's behaviour (spec §2.1 QUIRK): the object is re-created with the new scope, and
    // the new scope takes effect on the next start; this run keeps the old object's settings.
    spdlog::warn(
        "DEFAULT_KUBEFED_SCOPE {} differs from the scope {} of KubeFedConfig \"{}/{}\": "
        "re-creating it; the new scope applies from the next start",
        default_scope, config.spec.scope, ns, kKubeFedConfigName);
    auto removed = configs.remove(kKubeFedConfigName);
    if (!removed && !isNotFound(removed.error())) {
      return makeError(removed.error().reason, "cannot delete KubeFedConfig to change its scope: " +
                                                   removed.error().describe());
    }
    KF_TRY(recreated, createConfig(configs, ns, default_scope));
    (void)recreated;
  }
  return config;
}

// How KubeFed prints the list (Go's %v of a field.ErrorList): "[a b]", also for a single error.
std::string printedLikeGoErrorList(const meta::ErrorList& errors) {
  std::string out = "[";
  for (const auto& error : errors) out += (out.size() > 1 ? " " : "") + error.message();
  return out + "]";
}

Duration valueOr(const std::optional<meta::Duration>& value, Duration fallback) {
  return value ? value->value() : fallback;
}

}  // namespace

Result<core::KubeFedConfig> obtainKubeFedConfig(RestClient& host, const Options& options,
                                                const std::string& ns) {
  Result<core::KubeFedConfig> loaded = options.kubefed_config.empty()
                                           ? readApi(host, ns, options.default_scope)
                                           : readFile(options.kubefed_config, ns);
  if (!loaded) return loaded;
  core::KubeFedConfig config = std::move(loaded).value();
  const std::string name = ns + "/" + kKubeFedConfigName;
  // Validated as stored, never defaulted first (KubeFed's webhook defaults it on create): a
  // partial config written where no webhook ran is fatal, as it is for KubeFed.
  if (auto errors = core::validateKubeFedConfig(config, nullptr); !errors.empty()) {
    return makeError(Reason::kInvalid,
                     "invalid KubeFedConfig \"" + name + "\": " + printedLikeGoErrorList(errors));
  }
  spdlog::info("Using valid KubeFedConfig \"{}\"", name);
  return config;
}

Result<ControlPlaneConfig> controlPlaneConfigFrom(const core::KubeFedConfig& config,
                                                  const Options& options, const std::string& ns,
                                                  FeatureGate& gates) {
  const auto& spec = config.spec;
  ControlPlaneConfig out;
  out.kubefed_namespace = ns;
  out.namespaced_scope = spec.scope == core::kScopeNamespaced;
  out.target_namespace = out.namespaced_scope ? ns : "";
  if (out.namespaced_scope) {
    spdlog::info("KubeFed will be limited to the \"{}\" namespace", ns);
  } else {
    spdlog::info("KubeFed will target all namespaces");
  }
  // Validation required every section and checked the values.
  const auto& durations = *spec.controller_duration;
  out.cluster_available_delay = valueOr(durations.available_delay, out.cluster_available_delay);
  out.cluster_unavailable_delay =
      valueOr(durations.unavailable_delay, out.cluster_unavailable_delay);
  const auto& election = *spec.leader_elect;
  out.lease_duration = options.leader_elect_lease_duration.value_or(
      valueOr(election.lease_duration, out.lease_duration));
  out.renew_deadline = options.leader_elect_renew_deadline.value_or(
      valueOr(election.renew_deadline, out.renew_deadline));
  out.retry_period =
      options.leader_elect_retry_period.value_or(valueOr(election.retry_period, out.retry_period));
  out.resource_lock = election.resource_lock.value_or(out.resource_lock);
  const auto& health = *spec.cluster_health_check;
  out.health_period = valueOr(health.period, out.health_period);
  out.health_timeout = valueOr(health.timeout, out.health_timeout);
  out.health_failure_threshold = static_cast<int>(health.failure_threshold.value_or(3));
  out.health_success_threshold = static_cast<int>(health.success_threshold.value_or(1));
  out.sync_max_concurrent_reconciles =
      static_cast<int>(spec.sync_controller->max_concurrent_reconciles.value_or(1));
  out.sync_initial_backoff = options.sync_initial_backoff;
  out.sync_max_backoff = options.sync_max_backoff;
  out.skip_adopting_resources = spec.sync_controller->adopt_resources == core::kDisabled;
  out.status_max_concurrent_reconciles =
      static_cast<int>(spec.status_controller->max_concurrent_reconciles.value_or(1));

  std::vector<std::pair<std::string, std::string>> config_gates;
  for (const auto& gate : spec.feature_gates.value_or(std::vector<core::FeatureGateConfig>{})) {
    config_gates.emplace_back(gate.name, gate.configuration);
  }
  std::vector<std::string> warnings;
  if (auto applied =
          applyKubeFedConfigThenFlag(gates, config_gates, options.feature_gates, &warnings);
      !applied) {
    return makeError(Reason::kBadConfig, "Invalid Feature Gate: " + applied.error().message);
  }
  for (const auto& warning : warnings) spdlog::warn("{}", warning);
  out.push_reconciler = gates.enabled(features::kPushReconciler);
  out.scheduler_preferences = gates.enabled(features::kSchedulerPreferences);
  out.raw_resource_status_collection = gates.enabled(features::kRawResourceStatusCollection);
  return out;
}

}  // namespace kf::manager
