#pragma once
// KubeFed's metrics (spec §2.8), with KubeFed's names, types, labels and buckets, recorded into
// the process-wide registry that /metrics renders. Every function is thread-safe and cheap.

#include <string>
#include <string_view>

#include "federation/runtime/clock.h"

namespace kf::metrics {

enum class ClusterState { kReady, kNotReady, kOffline };

// kubefedcluster_total{state,cluster}: the probed state 1, the other two 0.
void recordClusterState(const std::string& cluster, ClusterState state);
// Drops a removed cluster's kubefedcluster_total series.
void forgetCluster(const std::string& cluster);
// cluster_health_status_duration_seconds
void observeClusterHealthDuration(Duration elapsed);
// cluster_client_connection_duration_seconds
void observeClusterClientConnection(Duration elapsed);
// reconcile_federated_resources_duration_seconds
void observeFederatedReconcile(Duration elapsed);
// dispatch_operation_duration_seconds{action}: action is "create", "update" or "delete".
void observeDispatch(std::string_view action, Duration elapsed);
// controller_runtime_reconcile_duration_seconds{controller} and
// controller_runtime_reconcile_quantile_seconds{controller}.
void observeControllerReconcile(std::string_view controller, Duration elapsed);
// workqueue_retries_total{name}: a reconcile of work queue `name` asked to be retried (failure,
// recheck or not synced). Not KubeFed's: its plain named queues export no retries series. The
// other workqueue_* series come from the queues themselves (workqueue_metrics.h).
void countWorkqueueRetry(std::string_view name);

// Ours: a propagation pass found the member object of a federated object of `type` (its
// lower-case kind) drifted in `cluster` (kubefedcpp_drift_detected_total). The family is
// registered on first use, so /metrics shows it only once a drift policy reported something.
void countDriftDetected(std::string_view type, std::string_view cluster);

// The whole registry in the Prometheus text exposition format (version 0.0.4).
std::string renderPrometheusText();

}  // namespace kf::metrics
