#include "federation/controller/reconcile_worker.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <utility>
#include <vector>

#include "federation/controller/key_backoff.h"
#include "federation/metrics/kubefed_metrics.h"
#include "federation/runtime/thread_annotations.h"
#include "federation/workqueue/delaying_queue.h"

namespace kf {

struct ReconcileWorker::State {
  State(ReconcileWorkerOptions worker_options, ReconcileFunc reconcile_func, Clock& worker_clock)
      : options(std::move(worker_options)),
        reconcile(std::move(reconcile_func)),
        queue(worker_clock),
        backoff(options.initial_backoff, options.max_backoff, worker_clock) {}

  void runWorker();
  ReconcileResult reconcileGuarded(const std::string& key);
  void requeue(const std::string& key, ReconcileResult result);
  void add(const std::string& key, Duration delay);
  void publishDepth() {
    metrics::setWorkqueueDepth(options.name, static_cast<double>(queue.len()));
  }

  const ReconcileWorkerOptions options;
  const ReconcileFunc reconcile;
  DelayingQueue queue;
  KeyBackoff backoff;
  // Read by workers after every get(): once set, keys still queued are left alone.
  std::atomic<bool> stopping{false};

  Mutex mu;
  std::vector<std::jthread> threads KF_GUARDED_BY(mu);
  bool started KF_GUARDED_BY(mu) = false;
  bool stopped KF_GUARDED_BY(mu) = false;
};

void ReconcileWorker::State::runWorker() {
  while (std::optional<std::string> key = queue.get()) {
    publishDepth();
    if (stopping) {
      queue.done(*key);
      return;
    }
    const ReconcileResult result = reconcileGuarded(*key);
    // Before done(): a key re-added while it was being reconciled is requeued by done() at once,
    // and must not lose that to a later delayed add.
    requeue(*key, result);
    queue.done(*key);
  }
}

ReconcileResult ReconcileWorker::State::reconcileGuarded(const std::string& key) {
  // A throwing reconcile must not end the worker thread (std::terminate); treat it as a failure
  // and retry with backoff.
  try {
    return reconcile(key);
  } catch (const std::exception& e) {
    spdlog::error("Reconcile threw worker={} key={} error={}", options.name, key, e.what());
  } catch (...) {
    spdlog::error("Reconcile threw worker={} key={} error=unknown", options.name, key);
  }
  return ReconcileResult::kError;
}

void ReconcileWorker::State::requeue(const std::string& key, ReconcileResult result) {
  switch (result) {
    case ReconcileResult::kOk:
      backoff.reset(key);
      return;
    case ReconcileResult::kError:
      metrics::countWorkqueueRetry(options.name);
      add(key, backoff.next(key));
      return;
    case ReconcileResult::kNeedsRecheck:
      metrics::countWorkqueueRetry(options.name);
      backoff.reset(key);
      add(key, options.retry_delay);
      return;
    case ReconcileResult::kNotSynced:
      metrics::countWorkqueueRetry(options.name);
      backoff.reset(key);
      add(key, options.cluster_sync_delay);
      return;
  }
}

void ReconcileWorker::State::add(const std::string& key, Duration delay) {
  // Counts every request, also one the queue folds into a key already waiting (client-go counts
  // only keys that were not waiting; the queue does not tell us which).
  metrics::countWorkqueueAdd(options.name);
  queue.addAfter(key, delay);
  publishDepth();
}

ReconcileWorker::ReconcileWorker(ReconcileWorkerOptions options, ReconcileFunc reconcile,
                                 Clock& clock)
    : state_(std::make_unique<State>(std::move(options), std::move(reconcile), clock)) {}

ReconcileWorker::~ReconcileWorker() { stop(); }

void ReconcileWorker::enqueue(const std::string& key) { enqueueAfter(key, Duration::zero()); }

void ReconcileWorker::enqueueAfter(const std::string& key, Duration delay) {
  state_->backoff.reset(key);
  state_->add(key, delay);
}

void ReconcileWorker::start() {
  MutexLock lock(state_->mu);
  if (state_->started || state_->stopped) return;
  state_->started = true;
  const int threads = std::max(1, state_->options.concurrency);
  for (int i = 0; i < threads; ++i) {
    state_->threads.emplace_back([state = state_.get()] { state->runWorker(); });
  }
}

void ReconcileWorker::stop() {
  std::vector<std::jthread> threads;
  {
    MutexLock lock(state_->mu);
    if (state_->stopped) return;
    state_->stopped = true;
    threads = std::move(state_->threads);
  }
  state_->stopping = true;
  // Wakes every worker blocked in get() and drops keys still waiting for their delay.
  state_->queue.shutDown();
  // Joined outside the lock, so start() or a second stop() never waits for a long reconcile.
  for (std::jthread& thread : threads) thread.join();
}

}  // namespace kf
