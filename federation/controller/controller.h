#pragma once
// The controller runtime: a Controller is a deduplicating work queue of keys, fed by informer
// events and delays, and N worker threads that hand each key to one Reconciler (KubeFed's
// reconcile worker, spec §2.2). A key is never reconciled by two threads at once. The runtime, not
// the reconciler, owns the queue, the workers, handler registration, KubeFed's handling of each
// result (backoff per key, recheck and cluster-sync delays), the reconcile timing metric, the
// slow-reconcile log line, and stop-and-join. ControllerBuilder (builder.h) wires one in a few
// lines.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "federation/controller/change_trigger.h"
#include "federation/controller/reconciler.h"
#include "federation/controller/runnable.h"
#include "federation/informer/shared_informer.h"
#include "federation/runtime/clock.h"

namespace kf {

struct ControllerOptions {
  std::string name;  // the work queue's name: workqueue_*{name=...} and log lines
  // The controller label of controller_runtime_reconcile_*, which KubeFed exports only for its
  // controller-runtime based controllers; "" observes nothing.
  std::string reconcile_metric;
  int concurrency = 1;
  Duration retry_delay = std::chrono::seconds(10);         // after kNeedsRecheck
  Duration cluster_sync_delay = std::chrono::seconds(20);  // after kNotSynced
  Duration initial_backoff = std::chrono::seconds(5);      // after a failure, doubling per key
  Duration max_backoff = std::chrono::seconds(60);
};

// The keys an informer event concerns (controller-runtime's EnqueueRequestsFromMapFunc).
using MapFunc = std::function<std::vector<std::string>(const Json& object)>;
// The object's own key: "namespace/name", or "name".
std::vector<std::string> keyOfObject(const Json& object);

struct WatchOptions {
  Duration delay{0};  // how long after the event the keys are queued
  UpdateFilter update_filter = objectChanged;
};

class Controller final : public Runnable {
 public:
  Controller(ControllerOptions options, ReconcilerPtr reconciler, Clock& clock);
  // stop().
  ~Controller() override;
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  // Before start(): events of `informer` (which must outlive the controller's stop()) queue the
  // keys `map` names. The informer is not started here: whoever shares it starts it.
  void watch(SharedInformer& informer, MapFunc map, WatchOptions options = {});

  // Queues `key` now, and forgets its backoff.
  void enqueue(const std::string& key);
  // Queues `key` after `delay`; a key already waiting keeps the earlier time.
  void enqueueAfter(const std::string& key, Duration delay);

  // Starts the workers, then registers the watches. Keys queued before wait for it. Once only.
  Status start() override;
  // Removes the watches, stops taking keys, waits for the reconciles in progress and joins every
  // worker. Idempotent; must not be called from a reconcile.
  void stop() override;

  const std::string& name() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};
using ControllerPtr = std::unique_ptr<Controller>;

}  // namespace kf
