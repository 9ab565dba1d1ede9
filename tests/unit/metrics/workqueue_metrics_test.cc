#include "federation/metrics/workqueue_metrics.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/fake_clock.h"

namespace kf::metrics {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class WorkqueueMetricsTest : public ::testing::Test {
 protected:
  test::FakeClock clock_;
  Registry registry_{clock_};
};

// The exposition of one histogram series of a queue named "q" with every observation in the
// bucket `le` and above.
std::string histogramLines(const std::string& metric, const std::string& first_le,
                           const std::string& sum, int count) {
  std::string out;
  int cumulative = 0;
  for (const char* le : {"1e-08", "1e-07", "1e-06", "9.999999999999999e-06",
                         "9.999999999999999e-05", "0.001", "0.01", "0.1", "1", "10", "+Inf"}) {
    if (le == first_le) cumulative = count;
    out += metric + "_bucket{name=\"q\",le=\"" + le + "\"} " + std::to_string(cumulative) + "\n";
  }
  out += metric + "_sum{name=\"q\"} " + sum + "\n";
  out += metric + "_count{name=\"q\"} " + std::to_string(count) + "\n";
  return out;
}

// Verifies the six families with controller-runtime 0.9's names, HELP texts, types, the name
// label, and Go's ExponentialBuckets(10e-9, 10, 10) bounds printed as the Go client prints them.
TEST_F(WorkqueueMetricsTest, ExportsControllerRuntimeFamiliesAndBuckets) {
  WorkqueueMetrics metrics(
      "q", [] { return WorkInProgress{.total = seconds(3), .longest = seconds(2)}; }, registry_);
  metrics.added();
  metrics.added();
  metrics.taken(milliseconds(5));
  metrics.done(seconds(20));
  EXPECT_EQ(
      registry_.render(),
      "# HELP workqueue_adds_total Total number of adds handled by workqueue\n"
      "# TYPE workqueue_adds_total counter\n"
      "workqueue_adds_total{name=\"q\"} 2\n"
      "# HELP workqueue_depth Current depth of workqueue\n"
      "# TYPE workqueue_depth gauge\n"
      "workqueue_depth{name=\"q\"} 1\n"
      "# HELP workqueue_longest_running_processor_seconds How many seconds has the longest "
      "running processor for workqueue been running.\n"
      "# TYPE workqueue_longest_running_processor_seconds gauge\n"
      "workqueue_longest_running_processor_seconds{name=\"q\"} 2\n"
      "# HELP workqueue_queue_duration_seconds How long in seconds an item stays in workqueue "
      "before being requested\n"
      "# TYPE workqueue_queue_duration_seconds histogram\n" +
          histogramLines("workqueue_queue_duration_seconds", "0.01", "0.005", 1) +
          "# HELP workqueue_unfinished_work_seconds How many seconds of work has been done that "
          "is in progress and hasn't been observed by work_duration. Large values indicate stuck "
          "threads. One can deduce the number of stuck threads by observing the rate at which "
          "this increases.\n"
          "# TYPE workqueue_unfinished_work_seconds gauge\n"
          "workqueue_unfinished_work_seconds{name=\"q\"} 3\n"
          "# HELP workqueue_work_duration_seconds How long in seconds processing an item from "
          "workqueue takes.\n"
          "# TYPE workqueue_work_duration_seconds histogram\n" +
          histogramLines("workqueue_work_duration_seconds", "+Inf", "20", 1));
}

// Verifies the work-in-progress question is asked at each scrape, and no more once the metrics
// of the queue are gone.
TEST_F(WorkqueueMetricsTest, AsksForWorkInProgressAtEachScrapeWhileAlive) {
  int asked = 0;
  {
    WorkqueueMetrics metrics(
        "q",
        [&] {
          ++asked;
          return WorkInProgress{};
        },
        registry_);
    registry_.render();
    registry_.render();
    EXPECT_EQ(asked, 2);
  }
  registry_.render();
  EXPECT_EQ(asked, 2);
}

}  // namespace
}  // namespace kf::metrics
