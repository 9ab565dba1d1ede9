#pragma once
// KubeFed's reconcile worker (spec §2.2): a deduplicating queue of keys fed with delays, and N
// worker threads that call one reconcile function; a key is never reconciled by two threads at
// once. The result of each reconcile decides when the key comes back.

#include <functional>
#include <memory>
#include <string>

#include "federation/runtime/clock.h"

namespace kf {

enum class ReconcileResult {
  kOk,            // done; the key's backoff is reset
  kError,         // retry after the key's backoff (initial 5 s, doubling, at most 60 s)
  kNeedsRecheck,  // retry after retry_delay
  kNotSynced,     // caches not ready: retry after cluster_sync_delay
};

struct ReconcileWorkerOptions {
  std::string name;  // the queue's name, e.g. "federatedtypeconfig" (metrics, logs)
  int concurrency = 1;
  Duration retry_delay = std::chrono::seconds(10);
  Duration cluster_sync_delay = std::chrono::seconds(20);
  Duration initial_backoff = std::chrono::seconds(5);
  Duration max_backoff = std::chrono::seconds(60);
};

using ReconcileFunc = std::function<ReconcileResult(const std::string& key)>;

class ReconcileWorker {
 public:
  ReconcileWorker(ReconcileWorkerOptions options, ReconcileFunc reconcile, Clock& clock);
  // stop().
  ~ReconcileWorker();
  ReconcileWorker(const ReconcileWorker&) = delete;
  ReconcileWorker& operator=(const ReconcileWorker&) = delete;

  // Queues `key` now (and resets its backoff).
  void enqueue(const std::string& key);
  // Queues `key` after `delay`; a key already waiting keeps the earlier time.
  void enqueueAfter(const std::string& key, Duration delay);

  // Starts the worker threads. Keys enqueued before start() wait for it.
  void start();
  // Stops taking keys, waits for reconciles in progress to return and joins every thread.
  // Idempotent; must not be called from inside the reconcile function.
  void stop();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kf
