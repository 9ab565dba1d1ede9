#include "federation/controller/controller.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <ostream>
#include <thread>
#include <utility>
#include <vector>

#include "federation/controller/key_backoff.h"
#include "federation/metrics/kubefed_metrics.h"
#include "federation/runtime/thread_annotations.h"
#include "federation/runtime/thread_name.h"
#include "federation/workqueue/delaying_queue.h"

namespace kf {
namespace {

// KubeFed logs reconciles slower than this (at V(4)).
constexpr Duration kSlowReconcile = std::chrono::seconds(10);

long long millisecondsOf(Duration elapsed) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
}

struct SourceWatch {
  SourcePtr source;
  Handler handler;
};

}  // namespace

std::ostream& operator<<(std::ostream& out, const ReconcileStatus& status) {
  switch (status.kind()) {
    case ReconcileStatus::Kind::kOk:
      return out << "Ok";
    case ReconcileStatus::Kind::kNeedsRecheck:
      return out << "NeedsRecheck";
    case ReconcileStatus::Kind::kNotSynced:
      return out << "NotSynced";
    case ReconcileStatus::Kind::kRequeueAfter:
      return out << "RequeueAfter(" << millisecondsOf(status.delay()) << "ms)";
  }
  return out;
}

struct Controller::State {
  State(ControllerOptions controller_options, ReconcilerPtr controller_reconciler,
        Clock& controller_clock)
      : options(std::move(controller_options)),
        reconciler(std::move(controller_reconciler)),
        clock(controller_clock),
        queue(controller_clock, options.name),
        backoff(options.initial_backoff, options.max_backoff, controller_clock) {}

  void runWorker();
  ReconcileResult reconcileMeasured(const std::string& key);
  ReconcileResult reconcileGuarded(const std::string& key);
  void requeue(const QueuedKey& key, const ReconcileResult& result);
  void add(const std::string& key, Duration delay, Priority priority);

  const ControllerOptions options;
  // Before the reconciler, so that they go after it: it reads what they cache.
  std::vector<SourceWatch> watches;  // changed only before start() and by stop()
  ReconcilerPtr reconciler;          // dropped by stop()
  Clock& clock;
  DelayingQueue queue;
  KeyBackoff backoff;
  // Read by workers after every get(): once set, keys still queued are left alone.
  std::atomic<bool> stopping{false};

  Mutex mu;
  std::vector<std::jthread> threads KF_GUARDED_BY(mu);
  bool started KF_GUARDED_BY(mu) = false;
  bool stopped KF_GUARDED_BY(mu) = false;
};

void Controller::State::runWorker() {
  nameThisThread(options.name);
  while (std::optional<QueuedKey> taken = queue.getWithPriority()) {
    if (stopping) {
      queue.done(taken->key);
      return;
    }
    const ReconcileResult result = reconcileMeasured(taken->key);
    // Before done(): a key re-added while it was being reconciled is requeued by done() at once,
    // and must not lose that to a later delayed add.
    requeue(*taken, result);
    queue.done(taken->key);
  }
}

ReconcileResult Controller::State::reconcileMeasured(const std::string& key) {
  const SteadyTime start = clock.now();
  ReconcileResult result = reconcileGuarded(key);
  const Duration elapsed = clock.now() - start;
  if (!options.reconcile_metric.empty()) {
    metrics::observeControllerReconcile(options.reconcile_metric, elapsed);
  }
  if (elapsed > kSlowReconcile) {
    spdlog::debug("Reconcile took {}ms controller={} key={}", millisecondsOf(elapsed), options.name,
                  key);
  }
  return result;
}

ReconcileResult Controller::State::reconcileGuarded(const std::string& key) {
  // A throwing reconcile must not end the worker thread (std::terminate); treat it as a failure
  // and retry with backoff.
  try {
    return reconciler->reconcile(key);
  } catch (const std::exception& e) {
    return makeError(Reason::kUnknown, std::string("reconcile threw: ") + e.what());
  } catch (...) {
    return makeError(Reason::kUnknown, "reconcile threw an unknown exception");
  }
}

// A retry keeps the priority the key was taken with: a backlog key that failed stays behind the
// users' changes, and a user's change that failed does not fall behind the backlog.
void Controller::State::requeue(const QueuedKey& taken, const ReconcileResult& result) {
  const std::string& key = taken.key;
  if (!result) {
    spdlog::error("Reconcile failed controller={} key={} error={}", options.name, key,
                  result.error().describe());
    metrics::countWorkqueueRetry(options.name);
    add(key, backoff.next(key), taken.priority);
    return;
  }
  backoff.reset(key);
  switch (result.value().kind()) {
    case ReconcileStatus::Kind::kOk:
      return;
    case ReconcileStatus::Kind::kNeedsRecheck:
      metrics::countWorkqueueRetry(options.name);
      add(key, options.retry_delay, taken.priority);
      return;
    case ReconcileStatus::Kind::kNotSynced:
      metrics::countWorkqueueRetry(options.name);
      add(key, options.cluster_sync_delay, taken.priority);
      return;
    case ReconcileStatus::Kind::kRequeueAfter:
      metrics::countWorkqueueRetry(options.name);
      add(key, result.value().delay(), taken.priority);
      return;
  }
}

void Controller::State::add(const std::string& key, Duration delay, Priority priority) {
  // The queue, named after the controller, counts the key when it becomes waiting.
  queue.addAfter(key, delay, priority);
}

Controller::Controller(ControllerOptions options, ReconcilerPtr reconciler, Clock& clock)
    : state_(std::make_unique<State>(std::move(options), std::move(reconciler), clock)) {}

Controller::~Controller() { stop(); }

const std::string& Controller::name() const { return state_->options.name; }

void Controller::watch(SourcePtr source, Handler handler) {
  MutexLock lock(state_->mu);
  if (state_->started || state_->stopped) return;
  state_->watches.push_back(SourceWatch{std::move(source), std::move(handler)});
}

void Controller::enqueue(const std::string& key) { enqueueAfter(key, Duration::zero()); }

void Controller::enqueueAfter(const std::string& key, Duration delay) {
  state_->backoff.reset(key);
  state_->add(key, delay, Priority::kNormal);
}

void Controller::enqueueBacklogAfter(const std::string& key, Duration delay) {
  state_->backoff.reset(key);
  state_->add(key, delay, Priority::kBacklog);
}

Status Controller::start() {
  MutexLock lock(state_->mu);
  if (state_->started || state_->stopped) return boost::outcome_v2::success();
  state_->started = true;
  const int threads = std::max(1, state_->options.concurrency);
  for (int i = 0; i < threads; ++i) {
    state_->threads.emplace_back([state = state_.get()] { state->runWorker(); });
  }
  // After the workers: an informer that has synced replays its cache to a new handler at once.
  for (SourceWatch& watch : state_->watches) watch.source->start(*this, watch.handler);
  return boost::outcome_v2::success();
}

void Controller::stop() {
  std::vector<std::jthread> threads;
  {
    MutexLock lock(state_->mu);
    if (state_->stopped) return;
    state_->stopped = true;
    threads = std::move(state_->threads);
  }
  // The sources first, so no event arrives for a stopped queue; outside the lock, since stopping
  // one waits for a handler call in progress, which may be enqueueing. The list no longer changes.
  for (SourceWatch& watch : state_->watches) watch.source->stop();
  state_->stopping = true;
  state_->reconciler->cancel();
  // Wakes every worker blocked in get() and drops keys still waiting for their delay.
  state_->queue.shutDown();
  // Joined outside the lock, so a second stop() never waits for a long reconcile.
  for (std::jthread& thread : threads) thread.join();
  // Then what the reconciles read: the reconciler, then the sources and their caches.
  state_->reconciler.reset();
  state_->watches.clear();
}

}  // namespace kf
