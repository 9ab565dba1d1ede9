#pragma once
// What a controller does with an event of one of its sources (controller-runtime's
// handler.EventHandler, with KubeFed's delays and update filter): the keys the event concerns,
// how long after it they are queued, and which updates count at all. A source reports events
// about one object (added, changed or deleted: its newest known state) or, for sources about no
// object in particular (a cluster changing readiness), about none.
//
// An event is delivered at a priority (federation/workqueue/priority.h): a backlog for the adds
// of an informer's initial list and for a look at every key (a cluster became ready), so that
// a change someone just made is reconciled before them; normal for everything else.

#include <functional>
#include <string>
#include <vector>

#include "apis/meta/object.h"
#include "federation/controller/change_trigger.h"
#include "federation/runtime/clock.h"
#include "federation/workqueue/priority.h"

namespace kf {

// Where a started source's keys go: a controller's work queue.
class EnqueueTarget {
 public:
  virtual ~EnqueueTarget() = default;
  // Queues `key` after `delay` and forgets its failure backoff; a key already waiting keeps the
  // earlier time.
  virtual void enqueueAfter(const std::string& key, Duration delay) = 0;
  // The same, but the key is a backlog: handed out after every normal key. A target without
  // priorities queues it as any other.
  virtual void enqueueBacklogAfter(const std::string& key, Duration delay) {
    enqueueAfter(key, delay);
  }
};

// The keys an event about `object` concerns (controller-runtime's EnqueueRequestsFromMapFunc).
using MapFunc = std::function<std::vector<std::string>(const Json& object)>;
// The object's own key: "namespace/name", or "name".
std::vector<std::string> keyOfObject(const Json& object);
// Keys of objects in namespace `ns` only.
MapFunc inNamespace(std::string ns);

struct Handler {
  // The keys an event concerns; `object` is null for an event about no object.
  std::function<std::vector<std::string>(const Json* object)> keys;
  Duration delay{0};  // how long after the event they are queued
  // When set, the delay of each key instead of `delay`.
  std::function<Duration(const std::string& key)> delay_of;
  // Whether an update counts (adds and deletes always do): KubeFed's rule by default.
  UpdateFilter update_filter = objectChanged;

  // This handler, counting only the updates `filter` accepts.
  Handler updatesWhen(UpdateFilter filter) &&;
  // This handler, queueing each key after `delay_for(key)`.
  Handler delayedBy(std::function<Duration(const std::string& key)> delay_for) &&;
  // Queues into `target`, at `priority`, the keys an event about `object` (null: none in
  // particular) concerns.
  void deliver(const Json* object, EnqueueTarget& target,
               Priority priority = Priority::kNormal) const;
};

// The object's own key (controller-runtime's EnqueueRequestForObject).
Handler enqueueObject(Duration delay = Duration::zero());
// The keys `map` names for the object; an event about no object queues nothing.
Handler enqueueMapped(MapFunc map, Duration delay = Duration::zero());
// Every key `keys` lists when the event arrives, whatever the event is about.
Handler enqueueAll(std::function<std::vector<std::string>()> keys,
                   Duration delay = Duration::zero());

}  // namespace kf
