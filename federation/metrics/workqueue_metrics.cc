#include "federation/metrics/workqueue_metrics.h"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace kf::metrics {
namespace {

double inSeconds(Duration elapsed) { return std::chrono::duration<double>(elapsed).count(); }

// Go's prometheus.ExponentialBuckets(10e-9, 10, 10), multiplied the same way, so that the `le`
// labels print the same digits (9.999999999999999e-06 and so on).
std::vector<double> durationBuckets() {
  std::vector<double> buckets;
  double bound = 10e-9;
  for (int i = 0; i < 10; ++i, bound *= 10) buckets.push_back(bound);
  return buckets;
}

}  // namespace

struct WorkqueueFamilies {
  explicit WorkqueueFamilies(Registry& r)
      : depth(r.gauge("workqueue_depth", "Current depth of workqueue", {"name"})),
        adds(r.counter("workqueue_adds_total", "Total number of adds handled by workqueue",
                       {"name"})),
        queue_duration(
            r.histogram("workqueue_queue_duration_seconds",
                        "How long in seconds an item stays in workqueue before being requested",
                        {"name"}, durationBuckets())),
        work_duration(r.histogram("workqueue_work_duration_seconds",
                                  "How long in seconds processing an item from workqueue takes.",
                                  {"name"}, durationBuckets())),
        unfinished(r.gauge("workqueue_unfinished_work_seconds",
                           "How many seconds of work has been done that is in progress and "
                           "hasn't been observed by work_duration. Large values indicate stuck "
                           "threads. One can deduce the number of stuck threads by observing the "
                           "rate at which this increases.",
                           {"name"})),
        longest(r.gauge("workqueue_longest_running_processor_seconds",
                        "How many seconds has the longest running processor for workqueue been "
                        "running.",
                        {"name"})) {}

  Gauge& depth;
  Counter& adds;
  Histogram& queue_duration;
  Histogram& work_duration;
  Gauge& unfinished;
  Gauge& longest;
};

WorkqueueMetrics::WorkqueueMetrics(std::string_view name,
                                   std::function<WorkInProgress()> in_progress, Registry& registry)
    : WorkqueueMetrics(name, std::move(in_progress), registry, WorkqueueFamilies(registry)) {}

WorkqueueMetrics::WorkqueueMetrics(std::string_view name,
                                   std::function<WorkInProgress()> in_progress, Registry& registry,
                                   const WorkqueueFamilies& families)
    : adds_(families.adds.series({name})),
      depth_(families.depth.series({name})),
      queue_duration_(families.queue_duration.series({name})),
      work_duration_(families.work_duration.series({name})),
      unfinished_(families.unfinished.series({name})),
      longest_(families.longest.series({name})) {
  hook_ = registry.beforeRender(
      [in_progress = std::move(in_progress), unfinished = unfinished_, longest = longest_] {
        const WorkInProgress now = in_progress();
        unfinished.set(inSeconds(now.total));
        longest.set(inSeconds(now.longest));
      });
}

void WorkqueueMetrics::added() const {
  adds_.inc();
  depth_.add(1);
}

void WorkqueueMetrics::taken(Duration waited) const {
  depth_.add(-1);
  queue_duration_.observe(inSeconds(waited));
}

void WorkqueueMetrics::done(Duration worked) const { work_duration_.observe(inSeconds(worked)); }

void WorkqueueMetrics::dropped(std::size_t keys) const { depth_.add(-static_cast<double>(keys)); }

}  // namespace kf::metrics
