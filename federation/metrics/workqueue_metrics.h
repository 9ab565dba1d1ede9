#pragma once
// The series a named client-go work queue feeds in KubeFed v0.8.1 (client-go 0.21 through
// controller-runtime 0.9's provider), all labelled name=<queue name>:
//   workqueue_depth                              gauge: keys waiting to be handed out
//   workqueue_adds_total                         counter: keys that became waiting
//   workqueue_queue_duration_seconds             histogram: from becoming waiting to handed out
//   workqueue_work_duration_seconds              histogram: from handed out to done
//   workqueue_unfinished_work_seconds            gauge: summed age of the keys being processed
//   workqueue_longest_running_processor_seconds  gauge: age of the oldest key being processed
// The two durations use buckets 1e-08 s up to 10 s, ten of them, each ten times the last.
// Every call is cheap (atomic updates, no lock, no allocation): queues call them under their lock.

#include <functional>
#include <string_view>

#include "federation/metrics/registry.h"
#include "federation/runtime/clock.h"

namespace kf::metrics {

// The keys a queue's workers hold right now.
struct WorkInProgress {
  Duration total{0};    // their ages added up
  Duration longest{0};  // the oldest one's age
};

struct WorkqueueFamilies;

class WorkqueueMetrics {
 public:
  // The series of queue `name` (created at 0 if new; a queue recreated under the same name carries
  // on counting, as client-go's do). `in_progress` is asked at every scrape for the two gauges
  // (client-go recomputes them every 500 ms); while several queues of one name live, the newest
  // one's answer is shown.
  WorkqueueMetrics(std::string_view name, std::function<WorkInProgress()> in_progress,
                   Registry& registry = defaultRegistry());
  WorkqueueMetrics(const WorkqueueMetrics&) = delete;
  WorkqueueMetrics& operator=(const WorkqueueMetrics&) = delete;

  // A key that was not waiting became waiting.
  void added() const;
  // A worker took a key that had been waiting `waited`.
  void taken(Duration waited) const;
  // A worker finished a key it had held for `worked`.
  void done(Duration worked) const;
  // A queue went away with `keys` still waiting: they leave the depth (KubeFed's workers drain
  // their queue when stopped, so its depth ends at 0 there too).
  void dropped(std::size_t keys) const;

 private:
  WorkqueueMetrics(std::string_view name, std::function<WorkInProgress()> in_progress,
                   Registry& registry, const WorkqueueFamilies& families);

  Counter::Series adds_;
  Gauge::Series depth_;
  Histogram::Series queue_duration_;
  Histogram::Series work_duration_;
  Gauge::Series unfinished_;
  Gauge::Series longest_;
  // Last: removed first on destruction, so a scrape never asks a queue that is going away.
  RenderHook hook_;
};

}  // namespace kf::metrics
