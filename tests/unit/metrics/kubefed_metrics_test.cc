#include "federation/metrics/kubefed_metrics.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace kf::metrics {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The process-wide registry is shared by the tests of this binary (and by repeated runs of
// them): each run uses fresh label values, and unlabelled families are checked for presence,
// not for counts.
std::string fresh(const std::string& prefix) {
  static int runs = 0;
  return prefix + "-" + std::to_string(++runs);
}

// Verifies every KubeFed family is exported with KubeFed's name and type from the first scrape.
TEST(KubefedMetricsTest, ExportsKubefedFamiliesWithTheirTypes) {
  const std::string text = renderPrometheusText();
  for (const char* histogram :
       {"cluster_health_status_duration_seconds", "cluster_client_connection_duration_seconds",
        "reconcile_federated_resources_duration_seconds", "join_cluster_duration_seconds",
        "unjoin_cluster_duration_seconds"}) {
    EXPECT_TRUE(contains(text, std::string("# TYPE ") + histogram + " histogram\n")) << histogram;
  }
  EXPECT_TRUE(contains(text, "# TYPE joined_cluster_total gauge\njoined_cluster_total 0\n"));
  EXPECT_TRUE(contains(text,
                       "# HELP cluster_health_status_duration_seconds Time taken for the "
                       "cluster health periodic function.\n"));
}

// Verifies KubeFed's bucket list, 0.01 up to 1000 then +Inf.
TEST(KubefedMetricsTest, HistogramsUseKubefedBuckets) {
  const std::string text = renderPrometheusText();
  std::string expected;
  for (const char* le :
       {"0.01", "0.05", "0.1",  "0.5", "1",    "2.5", "5",  "7.5", "10",  "12.5", "15",
        "17.5", "20",   "22.5", "25",  "27.5", "30",  "50", "75",  "100", "1000", "+Inf"}) {
    expected += std::string("unjoin_cluster_duration_seconds_bucket{le=\"") + le + "\"} 0\n";
  }
  expected += "unjoin_cluster_duration_seconds_sum 0\nunjoin_cluster_duration_seconds_count 0\n";
  EXPECT_TRUE(contains(text, expected)) << text;
}

// Verifies a probe sets its state to 1 and the other two to 0, and forgetCluster drops them.
TEST(KubefedMetricsTest, ClusterStateSetsOneStateAndClearsTheOthers) {
  recordClusterState("state-test", ClusterState::kReady);
  recordClusterState("state-test", ClusterState::kOffline);
  std::string text = renderPrometheusText();
  EXPECT_TRUE(contains(text,
                       "kubefedcluster_total{cluster=\"state-test\",state=\"notready\"} 0\n"
                       "kubefedcluster_total{cluster=\"state-test\",state=\"offline\"} 1\n"
                       "kubefedcluster_total{cluster=\"state-test\",state=\"ready\"} 0\n"))
      << text;
  forgetCluster("state-test");
  text = renderPrometheusText();
  EXPECT_FALSE(contains(text, "state-test")) << text;
}

// Verifies a dispatch duration lands in the bucket of its seconds, labelled by action.
TEST(KubefedMetricsTest, DispatchDurationIsObservedInSecondsByAction) {
  const std::string action = fresh("dispatch");
  observeDispatch(action, milliseconds(2500));
  const std::string text = renderPrometheusText();
  const std::string series = "dispatch_operation_duration_seconds_bucket{action=\"" + action;
  EXPECT_TRUE(contains(text, series + "\",le=\"1\"} 0\n" + series + "\",le=\"2.5\"} 1\n")) << text;
  EXPECT_TRUE(
      contains(text, "dispatch_operation_duration_seconds_sum{action=\"" + action + "\"} 2.5\n"));
}

// Verifies a controller reconcile feeds both the histogram and the summary.
TEST(KubefedMetricsTest, ControllerReconcileFeedsHistogramAndSummary) {
  const std::string controller = fresh("reconcile");
  observeControllerReconcile(controller, seconds(12));
  const std::string text = renderPrometheusText();
  EXPECT_TRUE(contains(text, "controller_runtime_reconcile_duration_seconds_count{controller=\"" +
                                 controller + "\"} 1\n"));
  EXPECT_TRUE(contains(text, "controller_runtime_reconcile_quantile_seconds{controller=\"" +
                                 controller + "\",quantile=\"0.99\"} 12\n"));
  EXPECT_TRUE(contains(text, "# TYPE controller_runtime_reconcile_quantile_seconds summary\n"));
}

// Verifies retries are counted under the worker name.
TEST(KubefedMetricsTest, WorkqueueRetriesAreLabelledByName) {
  const std::string queue = fresh("queue");
  countWorkqueueRetry(queue);
  countWorkqueueRetry(queue);
  const std::string text = renderPrometheusText();
  EXPECT_TRUE(contains(text, "workqueue_retries_total{name=\"" + queue + "\"} 2\n"));
}

}  // namespace
}  // namespace kf::metrics
