#pragma once
// The controller runtime: a Controller is a deduplicating work queue of keys, fed by its sources
// (source.h: informers, member clusters, cluster readiness) through their handlers, and N worker
// threads that hand each key to one Reconciler (KubeFed's reconcile worker, spec §2.2). A key is
// never reconciled by two threads at once. The runtime, not the reconciler, owns the queue, the
// workers, the sources and their start and stop order, KubeFed's handling of each result
// (backoff per key, recheck and cluster-sync delays, a reconciler's own requeue delay), the
// reconcile timing metric, the slow-reconcile log line, and stop-and-join. ControllerBuilder
// (builder.h) wires one in a few lines.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "federation/controller/handler.h"
#include "federation/controller/reconciler.h"
#include "federation/controller/runnable.h"
#include "federation/controller/source.h"
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

class Controller final : public Runnable, public EnqueueTarget {
 public:
  Controller(ControllerOptions options, ReconcilerPtr reconciler, Clock& clock);
  // stop().
  ~Controller() override;
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  // Before start(): the controller owns `source`, whose events queue what `handler` names.
  void watch(SourcePtr source, Handler handler);

  // Queues `key` now, and forgets its backoff.
  void enqueue(const std::string& key);
  // Queues `key` after `delay` and forgets its backoff; a key already waiting keeps the earlier
  // time.
  void enqueueAfter(const std::string& key, Duration delay) override;
  // The same as a backlog key (federation/workqueue/priority.h): after every normal key.
  void enqueueBacklogAfter(const std::string& key, Duration delay) override;

  // Starts the workers, then the sources in the order they were added (so that what a synced
  // cache replays reaches running workers). Keys queued before wait for it. Once only.
  Status start() override;
  // Stops the sources, tells the reconciler to cancel (Reconciler::cancel), stops taking keys,
  // waits for the reconciles in progress and joins every worker; then drops what the reconciles
  // read: the reconciler, then the sources with their caches and informer leases. Idempotent;
  // must not be called from a reconcile.
  void stop() override;

  const std::string& name() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};
using ControllerPtr = std::unique_ptr<Controller>;

}  // namespace kf
