#pragma once
// Where the controller manager's KubeFedConfig comes from (spec §2.1 steps 4–6): a file given with
// --kubefed-config, else the object `kubefed` in the KubeFed namespace, created (defaulted) when
// absent -- or, with WAIT_FOR_KUBEFED_CONFIG, waited for; then validated as it is, and turned into
// the settings the controllers read.

#include <stop_token>
#include <string>

#include "apis/core/kubefed_config.h"
#include "cmd/controller-manager/options.h"
#include "federation/client/rest_client.h"
#include "federation/controller/control_plane_config.h"
#include "federation/runtime/feature_gate.h"

namespace kf::manager {

inline constexpr const char* kKubeFedConfigName = "kubefed";
inline const GroupVersionResource kKubeFedConfigs{"core.kubefed.io", "v1beta1", "kubefedconfigs",
                                                  true};

// How often an awaited KubeFedConfig is looked for, and how often the wait is logged.
inline constexpr std::chrono::seconds kKubeFedConfigPollInterval{1};
inline constexpr std::chrono::seconds kKubeFedConfigWaitLogInterval{30};

// The KubeFedConfig to run with, validated without defaulting it first. Invalid ones, partial ones
// included, fail as KubeFed's do: "invalid KubeFedConfig \"<ns>/<name>\": [<error> <error>...]".
// An awaited one is looked for on `clock` until it exists; `stop` ends the wait with kCancelled.
Result<core::KubeFedConfig> obtainKubeFedConfig(RestClient& host, const Options& options,
                                                const std::string& kubefed_namespace, Clock& clock,
                                                const std::stop_token& stop);

// The settings for the controllers: the KubeFedConfig's values with command-line overrides, and
// the feature gates (KubeFedConfig first, --feature-gates winning) applied to `gates`.
Result<ControlPlaneConfig> controlPlaneConfigFrom(const core::KubeFedConfig& config,
                                                  const Options& options,
                                                  const std::string& kubefed_namespace,
                                                  FeatureGate& gates);

}  // namespace kf::manager
