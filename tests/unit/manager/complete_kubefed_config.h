#pragma once
// A complete KubeFedConfig spec: KubeFed's defaults, written out as its webhook stores them.

namespace kf::test {

inline constexpr const char* kCompleteKubeFedConfigSpec = R"({
  "scope": "Cluster",
  "controllerDuration": {"availableDelay": "20s", "unavailableDelay": "60s"},
  "leaderElect": {"leaseDuration": "15s", "renewDeadline": "10s", "retryPeriod": "5s",
                  "resourceLock": "configmaps"},
  "featureGates": [{"name": "PushReconciler", "configuration": "Enabled"}],
  "clusterHealthCheck": {"period": "10s", "failureThreshold": 3, "successThreshold": 1,
                         "timeout": "3s"},
  "syncController": {"maxConcurrentReconciles": 1, "adoptResources": "Enabled"},
  "statusController": {"maxConcurrentReconciles": 1}})";

}  // namespace kf::test
