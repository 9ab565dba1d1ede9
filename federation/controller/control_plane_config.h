#pragma once
// The settings every controller of the control plane reads, resolved once at startup from the
// KubeFedConfig (spec §1.3, §2.1 step 5) and the command line.

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "apis/core/kubefed_config.h"
#include "apis/meta/api_error.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/feature_gate.h"

namespace kf {

struct ControlPlaneConfig {
  std::string kubefed_namespace = "kube-federation-system";
  // Where federated objects are watched: "" = all namespaces; the KubeFed namespace when the
  // control plane is Namespaced-scoped.
  std::string target_namespace;
  bool namespaced_scope = false;

  Duration cluster_available_delay = std::chrono::seconds(20);
  Duration cluster_unavailable_delay = std::chrono::seconds(60);

  Duration lease_duration = std::chrono::seconds(15);
  Duration renew_deadline = std::chrono::seconds(10);
  Duration retry_period = std::chrono::seconds(5);
  // client-go's lock type: configmaps (KubeFed's default), endpoints, leases, configmapsleases,
  // endpointsleases.
  std::string resource_lock = "configmaps";

  Duration health_period = std::chrono::seconds(10);
  Duration health_timeout = std::chrono::seconds(3);
  int health_failure_threshold = 3;
  int health_success_threshold = 1;
  // Each member cluster's client limits (KubeFed: fixed at 20/30; here a flag).
  double member_client_qps = 20;
  int member_client_burst = 30;

  int sync_max_concurrent_reconciles = 1;
  // Requeue backoff of a sync reconcile that failed: doubling from initial to max, per object.
  Duration sync_initial_backoff = std::chrono::seconds(5);
  Duration sync_max_backoff = std::chrono::seconds(60);
  int status_max_concurrent_reconciles = 1;
  bool skip_adopting_resources = false;  // syncController.adoptResources == Disabled

  bool push_reconciler = true;                  // gate PushReconciler
  bool scheduler_preferences = true;            // gate SchedulerPreferences
  bool raw_resource_status_collection = false;  // gate RawResourceStatusCollection
};

// The settings a validated KubeFedConfig gives (its sections present, as validation requires),
// before any command-line override of the controller manager: scope, delays, leader election,
// health checks, controllers, adoption, and the feature gates of spec.featureGates and then
// `feature_gates_flag` applied to `gates` (warnings about GA or deprecated gates go to
// `warnings`). Shared by the controller manager and `kubefedctl plan`, which must see the
// control plane the same way. Fails with kBadConfig "Invalid Feature Gate: ..." on bad gates.
Result<ControlPlaneConfig> controlPlaneConfigOf(const core::KubeFedConfig& config,
                                                const std::string& kubefed_namespace,
                                                std::string_view feature_gates_flag,
                                                FeatureGate& gates,
                                                std::vector<std::string>* warnings);

}  // namespace kf
