// The metrics of a named work queue, read back from the process's /metrics text, on a fake
// clock: client-go's semantics of each series, as KubeFed's queues export them.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "federation/metrics/kubefed_metrics.h"
#include "federation/metrics/sample_parse.h"
#include "federation/workqueue/delaying_queue.h"
#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// The registry is process-wide (and tests may run repeatedly): each queue gets a name of its own.
std::string freshName(const std::string& prefix) {
  static int queues = 0;
  return prefix + "-" + std::to_string(++queues);
}

// The value of `metric`{name=queue[,le=le]}; nullopt when the series is not exported.
std::optional<double> sample(const std::string& metric, const std::string& queue,
                             const std::string& le = "") {
  const std::string text = metrics::renderPrometheusText();
  for (const auto& s : metrics::samplesNamed(text, metric)) {
    if (s.labels.at("name") != queue) continue;
    if (!le.empty() && (!s.labels.contains("le") || s.labels.at("le") != le)) continue;
    return s.value;
  }
  return std::nullopt;
}

class QueueMetricsTest : public ::testing::Test {
 protected:
  test::FakeClock clock_;
};

// Verifies a named queue exports client-go's six series at 0 from its creation, and an unnamed
// one exports none.
TEST_F(QueueMetricsTest, NamedQueueExportsEverySeriesFromTheStart) {
  const std::string name = freshName("created");
  Queue queue(name, clock_);
  for (const char* metric :
       {"workqueue_depth", "workqueue_adds_total", "workqueue_queue_duration_seconds_count",
        "workqueue_work_duration_seconds_count", "workqueue_unfinished_work_seconds",
        "workqueue_longest_running_processor_seconds"}) {
    EXPECT_EQ(sample(metric, name), 0) << metric;
  }
  Queue unnamed;
  unnamed.add("a");
  EXPECT_EQ(sample("workqueue_adds_total", ""), std::nullopt);
}

// Verifies adds and depth count keys that become waiting, not repeated adds of a waiting key,
// and that a get takes the key out of the depth.
TEST_F(QueueMetricsTest, AddsAndDepthCountKeysThatBecomeWaiting) {
  const std::string name = freshName("adds");
  Queue queue(name, clock_);
  queue.add("a");
  queue.add("a");
  queue.add("b");
  EXPECT_EQ(sample("workqueue_adds_total", name), 2);
  EXPECT_EQ(sample("workqueue_depth", name), 2);
  ASSERT_EQ(queue.get(), "a");
  EXPECT_EQ(sample("workqueue_depth", name), 1);
  // Added again while being processed: waiting (client-go counts it in the depth), not queued.
  queue.add("a");
  EXPECT_EQ(sample("workqueue_adds_total", name), 3);
  EXPECT_EQ(sample("workqueue_depth", name), 2);
  EXPECT_EQ(queue.len(), 1U);
}

// Verifies that a backlog key moving up is neither an add nor a change of depth, and that its
// queue duration runs from when it first became waiting.
TEST_F(QueueMetricsTest, MovingUpIsNotAnAdd) {
  const std::string name = freshName("raised");
  Queue queue(name, clock_);
  queue.add("a", Priority::kBacklog);
  queue.add("b", Priority::kBacklog);
  clock_.advance(milliseconds(3000));
  queue.add("b");
  EXPECT_EQ(sample("workqueue_adds_total", name), 2);
  EXPECT_EQ(sample("workqueue_depth", name), 2);
  ASSERT_EQ(queue.get(), "b");
  EXPECT_EQ(sample("workqueue_queue_duration_seconds_sum", name), 3);
  EXPECT_EQ(sample("workqueue_depth", name), 1);
}

// Verifies the queue duration runs from becoming waiting to being handed out, the work duration
// from being handed out to done, each in seconds into client-go's buckets.
TEST_F(QueueMetricsTest, DurationsAreObservedInTheirBuckets) {
  const std::string name = freshName("durations");
  Queue queue(name, clock_);
  queue.add("a");
  clock_.advance(milliseconds(2500));
  ASSERT_EQ(queue.get(), "a");
  clock_.advance(milliseconds(40));
  queue.done("a");

  EXPECT_EQ(sample("workqueue_queue_duration_seconds_count", name), 1);
  EXPECT_EQ(sample("workqueue_queue_duration_seconds_sum", name), 2.5);
  EXPECT_EQ(sample("workqueue_queue_duration_seconds_bucket", name, "1"), 0);
  EXPECT_EQ(sample("workqueue_queue_duration_seconds_bucket", name, "10"), 1);
  EXPECT_EQ(sample("workqueue_work_duration_seconds_count", name), 1);
  EXPECT_DOUBLE_EQ(sample("workqueue_work_duration_seconds_sum", name).value_or(-1), 0.04);
  EXPECT_EQ(sample("workqueue_work_duration_seconds_bucket", name, "0.01"), 0);
  EXPECT_EQ(sample("workqueue_work_duration_seconds_bucket", name, "0.1"), 1);
}

// Verifies a key added again while it is processed waits from that add, not from done().
TEST_F(QueueMetricsTest, AKeyAddedWhileProcessedWaitsFromItsAdd) {
  const std::string name = freshName("readded");
  Queue queue(name, clock_);
  queue.add("a");
  ASSERT_EQ(queue.get(), "a");
  queue.add("a");
  clock_.advance(seconds(3));
  queue.done("a");
  clock_.advance(seconds(1));
  ASSERT_EQ(queue.get(), "a");
  EXPECT_EQ(sample("workqueue_queue_duration_seconds_count", name), 2);
  EXPECT_EQ(sample("workqueue_queue_duration_seconds_sum", name), 4);
}

// Verifies the two gauges of work in progress are the summed and the largest age of the keys
// being processed, as of the scrape, and drop back to 0 when they are done.
TEST_F(QueueMetricsTest, UnfinishedWorkIsTheAgeOfKeysBeingProcessed) {
  const std::string name = freshName("unfinished");
  Queue queue(name, clock_);
  queue.add("a");
  queue.add("b");
  ASSERT_EQ(queue.get(), "a");
  clock_.advance(seconds(3));
  ASSERT_EQ(queue.get(), "b");
  clock_.advance(seconds(1));
  EXPECT_EQ(sample("workqueue_unfinished_work_seconds", name), 5);  // 4 s + 1 s
  EXPECT_EQ(sample("workqueue_longest_running_processor_seconds", name), 4);
  queue.done("a");
  queue.done("b");
  EXPECT_EQ(sample("workqueue_unfinished_work_seconds", name), 0);
  EXPECT_EQ(sample("workqueue_longest_running_processor_seconds", name), 0);
}

// Verifies a delayed key enters adds and depth only when its delay is over, and that keys
// left waiting when a queue goes away leave the depth while the other series stay.
TEST_F(QueueMetricsTest, DelayedKeysCountWhenTheyArriveAndLeftoversLeaveTheDepth) {
  const std::string name = freshName("delayed");
  auto queue = std::make_unique<DelayingQueue>(clock_, name);
  queue->addAfter("a", seconds(5));
  EXPECT_EQ(sample("workqueue_adds_total", name), 0);
  clock_.advance(seconds(5));
  EXPECT_EQ(sample("workqueue_adds_total", name), 1);
  EXPECT_EQ(sample("workqueue_depth", name), 1);
  queue.reset();
  EXPECT_EQ(sample("workqueue_depth", name), 0);
  EXPECT_EQ(sample("workqueue_adds_total", name), 1);

  // A queue made again under the name carries on, as client-go's series do.
  DelayingQueue again(clock_, name);
  again.add("b");
  EXPECT_EQ(sample("workqueue_adds_total", name), 2);
}

}  // namespace
}  // namespace kf
