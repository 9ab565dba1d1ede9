#include "federation/metrics/kubefed_metrics.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "federation/metrics/registry.h"

namespace kf::metrics {
namespace {

// KubeFed's one bucket list, used by every histogram it exports (seconds).
const std::vector<double>& kubefedBuckets() {
  static const std::vector<double> buckets = {0.01, 0.05, 0.1,  0.5, 1,    2.5, 5,
                                              7.5,  10,   12.5, 15,  17.5, 20,  22.5,
                                              25,   27.5, 30,   50,  75,   100, 1000};
  return buckets;
}

// KubeFed logs reconciles slower than this (at verbosity 4).
constexpr auto kLongReconcile = std::chrono::seconds(10);

double seconds(Duration elapsed) { return std::chrono::duration<double>(elapsed).count(); }

// Registered together on first use, so /metrics shows every family (unlabelled ones at 0) once
// anything touched them or rendered.
struct KubefedMetrics {
  explicit KubefedMetrics(Registry& r)
      : cluster_total(r.gauge("kubefedcluster_total",
                              "Number of total kubefed cluster in a specific state.",
                              {"state", "cluster"})),
        joined_cluster_total(r.gauge("joined_cluster_total", "Number of total joined clusters.")),
        cluster_health(r.histogram("cluster_health_status_duration_seconds",
                                   "Time taken for the cluster health periodic function.", {},
                                   kubefedBuckets())),
        cluster_client(r.histogram("cluster_client_connection_duration_seconds",
                                   "Time taken for the cluster client connection function.", {},
                                   kubefedBuckets())),
        federated_reconcile(
            r.histogram("reconcile_federated_resources_duration_seconds",
                        "Time taken to reconcile federated resources in the target clusters.", {},
                        kubefedBuckets())),
        join_cluster(r.histogram("join_cluster_duration_seconds", "Time taken to join a cluster.",
                                 {}, kubefedBuckets())),
        unjoin_cluster(r.histogram("unjoin_cluster_duration_seconds",
                                   "Time taken to unjoin a cluster.", {}, kubefedBuckets())),
        dispatch(r.histogram("dispatch_operation_duration_seconds",
                             "Time taken to run dispatch operation.", {"action"},
                             kubefedBuckets())),
        controller_reconcile(
            r.histogram("controller_runtime_reconcile_duration_seconds",
                        "Time taken by various parts of Kubefed controllers reconciliation loops.",
                        {"controller"}, kubefedBuckets())),
        controller_reconcile_quantiles(r.summary(
            "controller_runtime_reconcile_quantile_seconds",
            "Quantiles of time taken by various parts of Kubefed controllers reconciliation loops.",
            {"controller"}, SummaryOptions{.max_age = std::chrono::hours(1)})),
        workqueue_retries(r.counter("workqueue_retries_total",
                                    "Total number of retries handled by workqueue", {"name"})) {}

  Gauge& cluster_total;
  Gauge& joined_cluster_total;
  Histogram& cluster_health;
  Histogram& cluster_client;
  Histogram& federated_reconcile;
  Histogram& join_cluster;
  Histogram& unjoin_cluster;
  Histogram& dispatch;
  Histogram& controller_reconcile;
  Summary& controller_reconcile_quantiles;
  Counter& workqueue_retries;
};

KubefedMetrics& kubefed() {
  static KubefedMetrics metrics(defaultRegistry());
  return metrics;
}

const char* stateLabel(ClusterState state) {
  switch (state) {
    case ClusterState::kReady:
      return "ready";
    case ClusterState::kNotReady:
      return "notready";
    case ClusterState::kOffline:
      return "offline";
  }
  return "offline";
}

constexpr ClusterState kAllStates[] = {ClusterState::kReady, ClusterState::kNotReady,
                                       ClusterState::kOffline};

}  // namespace

void recordClusterState(const std::string& cluster, ClusterState state) {
  for (const ClusterState s : kAllStates) {
    kubefed().cluster_total.set({stateLabel(s), cluster}, s == state ? 1 : 0);
  }
}

void forgetCluster(const std::string& cluster) {
  for (const ClusterState s : kAllStates) kubefed().cluster_total.remove({stateLabel(s), cluster});
}

void observeClusterHealthDuration(Duration elapsed) {
  kubefed().cluster_health.observe({}, seconds(elapsed));
}

void observeClusterClientConnection(Duration elapsed) {
  kubefed().cluster_client.observe({}, seconds(elapsed));
}

void observeFederatedReconcile(Duration elapsed) {
  kubefed().federated_reconcile.observe({}, seconds(elapsed));
}

void observeDispatch(std::string_view action, Duration elapsed) {
  kubefed().dispatch.observe({action}, seconds(elapsed));
}

void observeControllerReconcile(std::string_view controller, Duration elapsed) {
  if (elapsed > kLongReconcile) {
    spdlog::trace("Reconcile loop {} took {:.3f}s to complete", controller, seconds(elapsed));
  }
  kubefed().controller_reconcile_quantiles.observe({controller}, seconds(elapsed));
  kubefed().controller_reconcile.observe({controller}, seconds(elapsed));
}

void countWorkqueueRetry(std::string_view name) { kubefed().workqueue_retries.inc({name}); }

void countDriftDetected(std::string_view type, std::string_view cluster) {
  static Counter& drift = defaultRegistry().counter(
      "kubefedcpp_drift_detected_total",
      "Member objects found drifted from their federated object, by federated type and cluster: "
      "one per propagation pass that reports a drift.",
      {"type", "cluster"});
  drift.inc({type, cluster});
}

std::string renderPrometheusText() {
  kubefed();  // KubeFed's families are on /metrics from the first scrape
  return defaultRegistry().render();
}

}  // namespace kf::metrics
