#include "cmd/controller-manager/kubefed_config_source.h"

#include <spdlog/spdlog.h>

#include <fstream>
#include <sstream>

#include "apis/core/validation.h"
#include "federation/client/resource_client.h"
#include "federation/crdgen/yaml_json.h"
#include "federation/runtime/interruptible_sleep.h"

namespace kf::manager {
namespace {

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

// The KubeFedConfig as stored, once it exists. Whoever set WAIT_FOR_KUBEFED_CONFIG creates it:
// the Helm chart's release does, after the Deployment (Helm creates custom resources last), so a
// controller manager that created a default one first would fail the install.
Result<Json> awaitConfig(ResourceClient& configs, const std::string& name, Clock& clock,
                         const std::stop_token& stop) {
  spdlog::info("Waiting for KubeFedConfig \"{}\" to be created (WAIT_FOR_KUBEFED_CONFIG=true)",
               name);
  const SteadyTime started = clock.now();
  SteadyTime logged = started;
  while (sleepUnlessStopped(clock, stop, kKubeFedConfigPollInterval)) {
    auto existing = configs.get(kKubeFedConfigName);
    if (existing || !isNotFound(existing.error())) return existing;
    if (clock.now() - logged >= kKubeFedConfigWaitLogInterval) {
      logged = clock.now();
      spdlog::info(
          "Still waiting for KubeFedConfig \"{}\" after {}s: create it (helm install or upgrade "
          "of the kubefed chart does), or unset WAIT_FOR_KUBEFED_CONFIG to have a default created",
          name, std::chrono::duration_cast<std::chrono::seconds>(logged - started).count());
    }
  }
  return makeError(Reason::kCancelled, "stopped while waiting for KubeFedConfig \"" + name + "\"");
}

Result<core::KubeFedConfig> readApi(RestClient& host, const std::string& ns, const Options& options,
                                    Clock& clock, const std::stop_token& stop) {
  const std::string& default_scope = options.default_scope;
  const std::string name = ns + "/" + kKubeFedConfigName;
  ResourceClient configs(host, kKubeFedConfigs, ns);
  auto existing = configs.get(kKubeFedConfigName);
  if (!existing && isNotFound(existing.error())) {
    if (!options.wait_for_kubefed_config) {
      return createConfig(configs, ns, default_scope.empty() ? "Cluster" : default_scope);
    }
    existing = awaitConfig(configs, name, clock, stop);
    if (!existing && existing.error().reason == Reason::kCancelled) return existing.error();
  }
  if (!existing) {
    return makeError(existing.error().reason,
                     "cannot read KubeFedConfig \"" + name + "\": " + existing.error().describe());
  }
  KF_TRY(config, decode(existing.value(), "\"" + name + "\""));
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

}  // namespace

Result<core::KubeFedConfig> obtainKubeFedConfig(RestClient& host, const Options& options,
                                                const std::string& ns, Clock& clock,
                                                const std::stop_token& stop) {
  Result<core::KubeFedConfig> loaded = options.kubefed_config.empty()
                                           ? readApi(host, ns, options, clock, stop)
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
  std::vector<std::string> warnings;
  KF_TRY(out, controlPlaneConfigOf(config, ns, options.feature_gates, gates, &warnings));
  if (out.namespaced_scope) {
    spdlog::info("KubeFed will be limited to the \"{}\" namespace", ns);
  } else {
    spdlog::info("KubeFed will target all namespaces");
  }
  for (const auto& warning : warnings) spdlog::warn("{}", warning);
  // The command line wins over the KubeFedConfig for leader election; backoffs and member client
  // limits are flags only.
  out.lease_duration = options.leader_elect_lease_duration.value_or(out.lease_duration);
  out.renew_deadline = options.leader_elect_renew_deadline.value_or(out.renew_deadline);
  out.retry_period = options.leader_elect_retry_period.value_or(out.retry_period);
  out.sync_initial_backoff = options.sync_initial_backoff;
  out.sync_max_backoff = options.sync_max_backoff;
  out.member_client_qps = options.member_client_qps;
  out.member_client_burst = options.member_client_burst;
  return out;
}

}  // namespace kf::manager
