#pragma once
// Where a controller's keys come from (controller-runtime's source.Source): an informer's events
// (informer_source.h), the managed objects of the member clusters (member_informers.h), clusters
// changing readiness (cluster_availability_source.h). A controller owns its sources: it starts
// them after its workers, so that what a synced cache replays reaches running workers, stops
// them before its workers, and drops them (with what they cache) after its reconciler.

#include <memory>

#include "federation/controller/handler.h"

namespace kf {

class Source {
 public:
  virtual ~Source() = default;
  // Starts reporting events: each queues into `target` the keys `handler` maps it to. Once only.
  // Must not call back into the controller's start() or stop().
  virtual void start(EnqueueTarget& target, Handler handler) = 0;
  // Stops reporting: when it returns no event is being handled and none will be. What the source
  // caches stays readable until it is destroyed. Idempotent; harmless without start().
  virtual void stop() = 0;
  // Whether what it caches is complete (true for a source that caches nothing).
  virtual bool synced() const = 0;
};
using SourcePtr = std::unique_ptr<Source>;

}  // namespace kf
