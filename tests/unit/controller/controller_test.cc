#include "federation/controller/controller.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "federation/controller/builder.h"
#include "federation/metrics/kubefed_metrics.h"
#include "federation/metrics/sample_parse.h"
#include "tests/unit/controller/worker_test_support.h"
#include "tests/unit/informer/fake_lister_watcher.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test::ReconcileLog;
using test::TimerWatchingClock;

using test::kError;
using test::kNeedsRecheck;
using test::kNotSynced;
using test::kOk;
using ReconcileFunc = std::function<ReconcileResult(const std::string&)>;

ReconcilerPtr reconcilerOf(ReconcileFunc fn) {
  return std::make_unique<ReconcilerFunc>(std::move(fn));
}

ControllerOptions testOptions(const std::string& name) {
  return {.name = name,
          .concurrency = 1,
          .retry_delay = seconds(10),
          .cluster_sync_delay = seconds(20),
          .initial_backoff = seconds(5),
          .max_backoff = seconds(60)};
}

// One worker thread, so keys are reconciled in queue order and a sentinel key queued now is
// reconciled only after every key that was ready before it.
class ControllerTest : public ::testing::Test {
 protected:
  void TearDown() override { worker_.stop(); }

  // Returns once every key that is ready now has been reconciled.
  void drain() {
    const std::string sentinel = "~sentinel" + std::to_string(++sentinels_);
    worker_.enqueue(sentinel);
    ASSERT_TRUE(log_.waitForCount(sentinel, 1)) << "the worker did not reach " << sentinel;
  }
  std::vector<std::string> orderWithoutSentinels() const {
    std::vector<std::string> out;
    for (const std::string& key : log_.order()) {
      if (key.rfind("~sentinel", 0) != 0) out.push_back(key);
    }
    return out;
  }

  TimerWatchingClock clock_;
  ReconcileLog log_{clock_, kOk};
  Controller worker_{testOptions("reconcile-worker-test"), reconcilerOf(log_.func()), clock_};
  int sentinels_ = 0;
};

// Verifies §6 worker_test: enqueues of a queued key collapse into one reconcile, and enqueues
// during its reconcile into exactly one more.
TEST(ControllerDedupTest, TenQueuedAndFiveDuringReconcileGiveTwoReconciles) {
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  Controller* self = nullptr;
  ReconcileFunc base = log.func();
  Controller worker(testOptions("worker-dedup-test"), reconcilerOf([&](const std::string& key) {
                      const bool first = key == "a" && log.count("a") == 0;
                      const ReconcileResult result = base(key);
                      if (first) {
                        for (int i = 0; i < 5; ++i) self->enqueue("a");
                      }
                      return result;
                    }),
                    clock);
  self = &worker;
  for (int i = 0; i < 10; ++i) worker.enqueue("a");
  ASSERT_TRUE(worker.start());

  ASSERT_TRUE(log.waitForCount("a", 2));
  // A third reconcile would have been queued before this key.
  worker.enqueue("z");
  ASSERT_TRUE(log.waitForCount("z", 1));
  worker.stop();
  EXPECT_EQ(log.count("a"), 2U);
}

// Verifies that keys queued before start() wait for it and are then reconciled.
TEST_F(ControllerTest, KeysQueuedBeforeStartAreReconciledAfterIt) {
  worker_.enqueue("a");
  worker_.enqueue("b");
  EXPECT_EQ(log_.count("a"), 0U);
  ASSERT_TRUE(worker_.start());
  drain();
  EXPECT_EQ(orderWithoutSentinels(), (std::vector<std::string>{"a", "b"}));
}

// Verifies the delaying deliverer: nothing early, and delivery-time order.
TEST_F(ControllerTest, DelayedKeysArriveInDeliveryTimeOrderAndNeverEarly) {
  ASSERT_TRUE(worker_.start());
  worker_.enqueueAfter("late", seconds(3));
  worker_.enqueueAfter("early", seconds(1));
  worker_.enqueueAfter("middle", seconds(2));

  clock_.advance(milliseconds(999));
  drain();
  EXPECT_TRUE(orderWithoutSentinels().empty());

  clock_.advance(seconds(3));
  ASSERT_TRUE(log_.waitForCount("late", 1));
  EXPECT_EQ(orderWithoutSentinels(), (std::vector<std::string>{"early", "middle", "late"}));
}

// Verifies that re-delivering a waiting key with an earlier time moves it earlier.
TEST_F(ControllerTest, EarlierRedeliveryOfWaitingKeyMovesItEarlier) {
  ASSERT_TRUE(worker_.start());
  const SteadyTime start = clock_.now();
  worker_.enqueueAfter("a", seconds(10));
  worker_.enqueueAfter("a", seconds(2));
  clock_.advance(seconds(2));
  ASSERT_TRUE(log_.waitForCount("a", 1));
  EXPECT_EQ(log_.times("a")[0] - start, seconds(2));

  // The superseded 10 s delivery does not reconcile the key a second time.
  clock_.advance(seconds(20));
  drain();
  EXPECT_EQ(log_.count("a"), 1U);
}

// Verifies that a later time for a waiting key is ignored.
TEST_F(ControllerTest, LaterRedeliveryOfWaitingKeyIsIgnored) {
  ASSERT_TRUE(worker_.start());
  const SteadyTime start = clock_.now();
  worker_.enqueueAfter("a", seconds(2));
  worker_.enqueueAfter("a", seconds(10));
  clock_.advance(seconds(2));
  ASSERT_TRUE(log_.waitForCount("a", 1));
  EXPECT_EQ(log_.times("a")[0] - start, seconds(2));
}

// Verifies that an immediate enqueue does not wait for a pending delayed delivery of the key.
TEST_F(ControllerTest, EnqueueNowOvertakesDelayedDelivery) {
  ASSERT_TRUE(worker_.start());
  worker_.enqueueAfter("a", seconds(30));
  worker_.enqueue("a");
  ASSERT_TRUE(log_.waitForCount("a", 1));
}

// Verifies §2.2: each failure doubles the key's delay from 5 s up to the 60 s cap.
TEST_F(ControllerTest, ErrorRetriesBackOffFromInitialDoublingUpToMax) {
  log_.script("a", std::vector<ReconcileResult>(8, kError));
  ASSERT_TRUE(worker_.start());
  worker_.enqueue("a");
  ASSERT_TRUE(log_.waitForCount("a", 1));

  const Duration expected[] = {seconds(5),  seconds(10), seconds(20),
                               seconds(40), seconds(60), seconds(60)};
  std::size_t reconciles = 1;
  for (const Duration delay : expected) {
    ASSERT_TRUE(clock_.waitForArmedTimers(reconciles));
    clock_.advance(delay - milliseconds(1));
    drain();
    EXPECT_EQ(log_.count("a"), reconciles) << "retried before " << delay.count() << "ns";
    clock_.advance(milliseconds(1));
    ASSERT_TRUE(log_.waitForCount("a", reconciles + 1)) << "not retried after " << delay.count();
    ++reconciles;
  }
}

// Verifies that a non-error enqueue resets the key's backoff.
TEST_F(ControllerTest, EnqueueResetsBackoff) {
  log_.script("a", {kError, kError, kError, kOk});
  ASSERT_TRUE(worker_.start());
  worker_.enqueue("a");
  ASSERT_TRUE(log_.waitForCount("a", 1));
  ASSERT_TRUE(clock_.waitForArmedTimers(1));
  clock_.advance(seconds(5));
  ASSERT_TRUE(log_.waitForCount("a", 2));  // the next delay would be 10 s
  ASSERT_TRUE(clock_.waitForArmedTimers(2));

  worker_.enqueue("a");
  ASSERT_TRUE(log_.waitForCount("a", 3));
  // Backoff restarted at 5 s (the earlier of the waiting 10 s and the new delay wins).
  drain();
  clock_.advance(seconds(5));
  ASSERT_TRUE(log_.waitForCount("a", 4));
  const std::vector<SteadyTime> times = log_.times("a");
  EXPECT_EQ(times[3] - times[2], seconds(5));
}

// Verifies that NeedsRecheck retries after retry_delay and resets the backoff.
TEST_F(ControllerTest, NeedsRecheckRetriesAfterRetryDelayAndResetsBackoff) {
  log_.script("a", {kError, kError, kNeedsRecheck, kError, kOk});
  ASSERT_TRUE(worker_.start());
  worker_.enqueue("a");
  const Duration steps[] = {seconds(5), seconds(10), seconds(10), seconds(5)};
  std::size_t reconciles = 1;
  for (const Duration step : steps) {
    ASSERT_TRUE(log_.waitForCount("a", reconciles));
    ASSERT_TRUE(clock_.waitForArmedTimers(reconciles));
    clock_.advance(step - milliseconds(1));
    drain();
    EXPECT_EQ(log_.count("a"), reconciles);
    clock_.advance(milliseconds(1));
    ++reconciles;
  }
  ASSERT_TRUE(log_.waitForCount("a", 5));
}

// Verifies that NotSynced retries after cluster_sync_delay.
TEST_F(ControllerTest, NotSyncedRetriesAfterClusterSyncDelay) {
  log_.script("a", {kNotSynced, kOk});
  ASSERT_TRUE(worker_.start());
  worker_.enqueue("a");
  ASSERT_TRUE(log_.waitForCount("a", 1));
  ASSERT_TRUE(clock_.waitForArmedTimers(1));
  clock_.advance(seconds(20) - milliseconds(1));
  drain();
  EXPECT_EQ(log_.count("a"), 1U);
  clock_.advance(milliseconds(1));
  ASSERT_TRUE(log_.waitForCount("a", 2));
}

// Verifies that Ok is final: no retry, whatever time passes.
TEST_F(ControllerTest, OkIsNotRetried) {
  ASSERT_TRUE(worker_.start());
  worker_.enqueue("a");
  ASSERT_TRUE(log_.waitForCount("a", 1));
  drain();
  EXPECT_EQ(clock_.pendingTimers(), 0U);
  clock_.advance(seconds(120));
  drain();
  EXPECT_EQ(log_.count("a"), 1U);
}

// Verifies that keys queued as normal are reconciled before the backlog queued earlier, and
// the backlog then in its order.
TEST_F(ControllerTest, NormalKeysAreReconciledBeforeTheBacklog) {
  worker_.enqueueBacklogAfter("b1", Duration::zero());
  worker_.enqueueBacklogAfter("b2", Duration::zero());
  worker_.enqueue("n");
  ASSERT_TRUE(worker_.start());
  worker_.enqueueBacklogAfter("~sentinel", Duration::zero());
  ASSERT_TRUE(log_.waitForCount("~sentinel", 1));
  EXPECT_EQ(orderWithoutSentinels(), (std::vector<std::string>{"n", "b1", "b2"}));
}

// Verifies that a retry keeps the priority the key was taken with: a failed backlog key does not
// become normal, and a failed normal key does not fall behind the backlog.
TEST(ControllerPriorityTest, ARetryKeepsThePriorityTheKeyWasTakenWith) {
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  log.script("a", {kError});
  log.script("n", {kError});
  std::promise<void> open_gate;
  const std::shared_future<void> gate = open_gate.get_future().share();
  std::atomic<bool> at_gate{false};
  const ReconcileFunc base = log.func();
  Controller worker(testOptions("worker-priority-retry-test"),
                    reconcilerOf([&](const std::string& key) {
                      if (key == "gate") {
                        at_gate = true;
                        gate.wait();
                      }
                      return base(key);
                    }),
                    clock);
  worker.enqueueBacklogAfter("a", Duration::zero());
  worker.enqueue("n");
  ASSERT_TRUE(worker.start());
  ASSERT_TRUE(log.waitForCount("a", 1));
  // The one worker reaches the gate only after it requeued "a": both retries now wait for
  // their backoff (5 s, the same deadline), and arrive while the worker is held.
  worker.enqueue("gate");
  ASSERT_TRUE(test::waitUntil([&] { return at_gate.load(); }, seconds(30)));
  clock.advance(seconds(5));
  open_gate.set_value();
  worker.enqueueBacklogAfter("last", Duration::zero());
  ASSERT_TRUE(log.waitForCount("last", 1));
  worker.stop();
  EXPECT_EQ(log.order(), (std::vector<std::string>{"n", "a", "gate", "n", "a", "last"}));
}

// Verifies that a throwing reconcile counts as an error (retried with backoff), and the worker
// thread survives it.
TEST(ControllerThrowTest, ThrowingReconcileIsRetriedWithBackoff) {
  TimerWatchingClock clock;
  std::atomic<int> calls{0};
  std::promise<void> second_call;
  Controller worker(testOptions("worker-throw-test"),
                    reconcilerOf([&](const std::string&) -> ReconcileResult {
                      if (++calls == 1) throw std::runtime_error("boom");
                      second_call.set_value();
                      return kOk;
                    }),
                    clock);
  ASSERT_TRUE(worker.start());
  worker.enqueue("a");
  ASSERT_TRUE(clock.waitForArmedTimers(1));
  clock.advance(seconds(5));
  ASSERT_EQ(second_call.get_future().wait_for(test::kWaitLimit), std::future_status::ready);
}

// Verifies N workers: up to `concurrency` keys at once, never the same key twice at once.
TEST(ControllerConcurrencyTest, RunsUpToConcurrencyKeysButNeverOneKeyTwice) {
  constexpr int kConcurrency = 3;
  TimerWatchingClock clock;
  Mutex mu;
  std::condition_variable cv;
  std::multiset<std::string> in_flight;
  std::size_t max_in_flight = 0;
  bool overlap = false;
  int done = 0;
  bool readded = false;
  Controller* self = nullptr;

  ControllerOptions options = testOptions("worker-concurrency-test");
  options.concurrency = kConcurrency;
  Controller worker(
      options, reconcilerOf([&](const std::string& key) {
        {
          MutexLock lock(mu);
          overlap = overlap || in_flight.contains(key);
          in_flight.insert(key);
          max_in_flight = std::max(max_in_flight, in_flight.size());
          cv.notify_all();
          // Hold every reconcile until all workers are busy at once.
          cv.wait_for(lock.native(), test::kWaitLimit,
                      [&]() KF_NO_THREAD_SAFETY_ANALYSIS { return max_in_flight >= kConcurrency; });
          in_flight.erase(in_flight.find(key));
          if (key == "k0" && !readded) {
            readded = true;
            self->enqueue("k0");  // while it is being processed
          }
          ++done;
        }
        cv.notify_all();
        return kOk;
      }),
      clock);
  self = &worker;
  for (int i = 0; i < 6; ++i) worker.enqueue("k" + std::to_string(i));
  ASSERT_TRUE(worker.start());

  {
    MutexLock lock(mu);
    // Six keys plus the re-added one.
    ASSERT_TRUE(cv.wait_for(lock.native(), test::kWaitLimit,
                            [&]() KF_NO_THREAD_SAFETY_ANALYSIS { return done >= 7; }));
  }
  worker.stop();
  MutexLock lock(mu);
  EXPECT_EQ(max_in_flight, static_cast<std::size_t>(kConcurrency));
  EXPECT_FALSE(overlap);
}

// Verifies that stop() returns only after the reconcile in progress returned (threads joined).
TEST(ControllerStopTest, StopWaitsForReconcileInProgress) {
  TimerWatchingClock clock;
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> finished{false};
  Controller worker(testOptions("worker-stop-test"), reconcilerOf([&](const std::string&) {
                      entered.set_value();
                      released.wait();
                      finished = true;
                      return kOk;
                    }),
                    clock);
  ASSERT_TRUE(worker.start());
  worker.enqueue("a");
  ASSERT_EQ(entered.get_future().wait_for(test::kWaitLimit), std::future_status::ready);

  bool finished_when_stop_returned = false;
  std::thread stopper([&] {
    worker.stop();
    finished_when_stop_returned = finished.load();
  });
  release.set_value();
  stopper.join();
  EXPECT_TRUE(finished_when_stop_returned);
}

// Verifies that after stop() nothing is reconciled: delayed keys are dropped, new keys ignored,
// and start() does not restart the worker.
TEST_F(ControllerTest, NothingIsReconciledAfterStop) {
  ASSERT_TRUE(worker_.start());
  worker_.enqueueAfter("delayed", seconds(1));
  worker_.stop();
  worker_.enqueue("late");
  ASSERT_TRUE(worker_.start());
  clock_.advance(seconds(5));
  EXPECT_TRUE(log_.order().empty());
  EXPECT_EQ(clock_.pendingTimers(), 0U);
  worker_.stop();  // idempotent
}

// Verifies that a worker never started is stopped cleanly by its destructor.
TEST(ControllerLifetimeTest, DestroyingAnUnstartedWorkerWithQueuedKeysIsClean) {
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  {
    Controller worker(testOptions("worker-lifetime-test"), reconcilerOf(log.func()), clock);
    worker.enqueue("a");
    worker.enqueueAfter("b", seconds(1));
  }
  clock.advance(seconds(2));
  EXPECT_TRUE(log.order().empty());
}

// Verifies the workqueue metrics are exported under the worker's name.
TEST_F(ControllerTest, ExportsWorkqueueMetricsUnderItsName) {
  log_.script("a", {kError, kOk});
  ASSERT_TRUE(worker_.start());
  worker_.enqueue("a");
  ASSERT_TRUE(log_.waitForCount("a", 1));
  ASSERT_TRUE(clock_.waitForArmedTimers(1));
  const std::string text = metrics::renderPrometheusText();
  EXPECT_NE(text.find("workqueue_adds_total{name=\"reconcile-worker-test\"}"), std::string::npos)
      << text;
  EXPECT_NE(text.find("workqueue_retries_total{name=\"reconcile-worker-test\"}"),
            std::string::npos);
  EXPECT_NE(text.find("workqueue_depth{name=\"reconcile-worker-test\"}"), std::string::npos);
}

// The value of `metric`{name=queue[,le=le]} in the process's metrics; nullopt when absent.
std::optional<double> queueSample(const std::string& metric, const std::string& queue,
                                  const std::string& le = "") {
  const std::string text = metrics::renderPrometheusText();
  for (const auto& sample : metrics::samplesNamed(text, metric)) {
    if (sample.labels.at("name") == queue && (le.empty() || sample.labels.at("le") == le)) {
      return sample.value;
    }
  }
  return std::nullopt;
}

// Verifies the worker's queue exports client-go's queue latency, work duration and
// work-in-progress series under the worker's name, as KubeFed's named queues do: the reconcile
// is the work, timed on the controller's clock.
TEST(ControllerQueueMetricsTest, ExportsQueueLatencyWorkDurationAndWorkInProgress) {
  const std::string name = "controller-queue-metrics-test";
  TimerWatchingClock clock;
  std::promise<void> started;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  Controller worker(testOptions(name), reconcilerOf([&](const std::string&) -> ReconcileResult {
                      started.set_value();
                      released.wait();
                      return kOk;
                    }),
                    clock);
  // Declared after the worker, so it runs first on the way out: a reconcile still waiting is
  // released even when an assertion failed, and stop() does not wait for it forever.
  struct ReleaseAtExit {
    std::promise<void>& release;
    bool done = false;
    void now() {
      if (!std::exchange(done, true)) release.set_value();
    }
    ~ReleaseAtExit() { now(); }
  } release_at_exit{release};
  ASSERT_TRUE(worker.start());
  worker.enqueue("a");
  ASSERT_EQ(started.get_future().wait_for(test::kWaitLimit), std::future_status::ready);
  clock.advance(seconds(3));
  EXPECT_EQ(queueSample("workqueue_unfinished_work_seconds", name), 3);
  EXPECT_EQ(queueSample("workqueue_longest_running_processor_seconds", name), 3);
  EXPECT_EQ(queueSample("workqueue_depth", name), 0);
  release_at_exit.now();

  const auto deadline = std::chrono::steady_clock::now() + test::kWaitLimit;
  while (queueSample("workqueue_work_duration_seconds_count", name) != 1 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  EXPECT_EQ(queueSample("workqueue_work_duration_seconds_count", name), 1);
  EXPECT_EQ(queueSample("workqueue_work_duration_seconds_sum", name), 3);
  EXPECT_EQ(queueSample("workqueue_work_duration_seconds_bucket", name, "1"), 0);
  EXPECT_EQ(queueSample("workqueue_work_duration_seconds_bucket", name, "10"), 1);
  // Taken at once on the fake clock: 0 s, in the first bucket.
  EXPECT_EQ(queueSample("workqueue_queue_duration_seconds_count", name), 1);
  EXPECT_EQ(queueSample("workqueue_queue_duration_seconds_bucket", name, "1e-08"), 1);
  EXPECT_EQ(queueSample("workqueue_adds_total", name), 1);
  EXPECT_EQ(queueSample("workqueue_unfinished_work_seconds", name), 0);
  worker.stop();
}

// Verifies a failed reconcile's error is not retried sooner than its backoff and that the
// controller, not the reconciler, measures each reconcile under its metric label.
TEST(ControllerMetricTest, ObservesEachReconcileUnderItsMetricLabel) {
  // The registry is process-wide: count what this test adds.
  auto observed = [] {
    const std::string text = metrics::renderPrometheusText();
    const std::string series =
        "controller_runtime_reconcile_duration_seconds_count{controller="
        "\"controllermetrictestcontroller\"} ";
    const auto at = text.find(series);
    return at == std::string::npos ? 0 : std::stoi(text.substr(at + series.size()));
  };
  const int before = observed();
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  ControllerOptions options = testOptions("controller-metric-test");
  options.reconcile_metric = "controllermetrictestcontroller";
  Controller controller(options, reconcilerOf(log.func()), clock);
  ASSERT_TRUE(controller.start());
  controller.enqueue("a");
  controller.enqueue("b");
  ASSERT_TRUE(log.waitForCount("b", 1));
  controller.stop();
  EXPECT_EQ(observed() - before, 2);
}

Json object(const std::string& ns, const std::string& name, int generation = 1) {
  return {{"metadata",
           {{"namespace", ns}, {"name", name}, {"resourceVersion", std::to_string(generation)}}},
          {"spec", {{"generation", generation}}}};
}

ObjectList listOf(std::vector<Json> items) {
  ObjectList list;
  list.resource_version = "1";
  list.items = std::move(items);
  return list;
}

// An informer over a scripted list/watch, and a controller watching it through the builder.
class ControllerWatchTest : public ::testing::Test {
 protected:
  void startWith(std::vector<Json> listed, MapFunc map, WatchOptions watch_options = {}) {
    script_->pushList(listOf(std::move(listed)));
    controller_ = ControllerBuilder("controller-watch-test", clock_)
                      .watches(informer_, std::move(map), std::move(watch_options))
                      .complete(reconcilerOf(log_.func()));
    ASSERT_TRUE(controller_->start());
    informer_.start();
    ASSERT_TRUE(test::waitUntil([&] { return script_->lastStream() != nullptr; }, seconds(30)));
  }
  void TearDown() override {
    if (controller_) controller_->stop();
    informer_.stop();
  }

  TimerWatchingClock clock_;
  ReconcileLog log_{clock_, kOk};
  std::shared_ptr<test::ListWatchScript> script_ = std::make_shared<test::ListWatchScript>();
  SharedInformer informer_{std::make_unique<test::FakeListerWatcher>(script_), clock_};
  ControllerPtr controller_;
};

// Verifies listed, added, changed and deleted objects queue their keys, and the map decides
// which keys (here: only namespace "kf").
TEST_F(ControllerWatchTest, InformerEventsQueueTheKeysTheMapNames) {
  startWith({object("kf", "a"), object("other", "b")}, inNamespace("kf"));
  ASSERT_TRUE(log_.waitForCount("kf/a", 1));
  script_->lastStream()->send(WatchEventType::kAdded, object("kf", "c"));
  ASSERT_TRUE(log_.waitForCount("kf/c", 1));
  script_->lastStream()->send(WatchEventType::kModified, object("kf", "a", 2));
  ASSERT_TRUE(log_.waitForCount("kf/a", 2));
  script_->lastStream()->send(WatchEventType::kDeleted, object("kf", "c", 3));
  ASSERT_TRUE(log_.waitForCount("kf/c", 2));
  script_->lastStream()->send(WatchEventType::kAdded, object("kf", "sentinel"));
  ASSERT_TRUE(log_.waitForCount("kf/sentinel", 1));
  EXPECT_EQ(log_.count("other/b"), 0U);
}

// Verifies updates the filter rejects queue nothing, while adds still do.
TEST_F(ControllerWatchTest, UpdatesTheFilterRejectsQueueNothing) {
  startWith({object("kf", "a")}, keyOfObject,
            {.update_filter = [](const Json& before, const Json& after) {
              return before["spec"] != after["spec"];
            }});
  ASSERT_TRUE(log_.waitForCount("kf/a", 1));
  Json status_only = object("kf", "a");
  status_only["metadata"]["resourceVersion"] = "5";
  status_only["status"] = {{"ready", true}};
  script_->lastStream()->send(WatchEventType::kModified, status_only);
  script_->lastStream()->send(WatchEventType::kModified, object("kf", "a", 6));
  ASSERT_TRUE(log_.waitForCount("kf/a", 2));
  script_->lastStream()->send(WatchEventType::kAdded, object("kf", "sentinel"));
  ASSERT_TRUE(log_.waitForCount("kf/sentinel", 1));
  EXPECT_EQ(log_.count("kf/a"), 2U);
}

// Verifies a watch with a delay queues the key that long after the event.
TEST_F(ControllerWatchTest, WatchDelayPostponesTheKey) {
  startWith({}, keyOfObject, {.delay = seconds(10)});
  script_->lastStream()->send(WatchEventType::kAdded, object("kf", "a"));
  ASSERT_TRUE(clock_.waitForArmedTimers(1));
  clock_.advance(seconds(9));
  EXPECT_EQ(log_.count("kf/a"), 0U);
  clock_.advance(seconds(1));
  ASSERT_TRUE(log_.waitForCount("kf/a", 1));
}

// Verifies stop() unregisters the handlers: later events queue nothing.
TEST_F(ControllerWatchTest, StopRemovesTheHandlers) {
  startWith({object("kf", "a")}, keyOfObject);
  ASSERT_TRUE(log_.waitForCount("kf/a", 1));
  controller_->stop();
  script_->lastStream()->send(WatchEventType::kAdded, object("kf", "b"));
  ASSERT_TRUE(
      test::waitUntil([&] { return informer_.store().get("kf/b") != nullptr; }, seconds(30)));
  EXPECT_EQ(log_.count("kf/b"), 0U);
}

// Verifies the builder's settings reach the controller: NeedsRecheck waits the retry delay, an
// error the initial backoff.
TEST(ControllerBuilderTest, DelaysAndBackoffComeFromTheBuilder) {
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  log.script("a", {kNeedsRecheck, kError, kOk});
  ControllerPtr controller = ControllerBuilder("controller-builder-test", clock)
                                 .concurrency(2)
                                 .delays(seconds(3), seconds(4))
                                 .backoff(seconds(7), seconds(8))
                                 .complete(reconcilerOf(log.func()));
  ASSERT_TRUE(controller->start());
  controller->enqueue("a");
  ASSERT_TRUE(log.waitForCount("a", 1));
  ASSERT_TRUE(clock.waitForArmedTimers(1));
  clock.advance(seconds(3));
  ASSERT_TRUE(log.waitForCount("a", 2));
  ASSERT_TRUE(clock.waitForArmedTimers(2));
  clock.advance(seconds(7));
  ASSERT_TRUE(log.waitForCount("a", 3));
  const std::vector<SteadyTime> times = log.times("a");
  EXPECT_EQ(times[1] - times[0], seconds(3));
  EXPECT_EQ(times[2] - times[1], seconds(7));
  controller->stop();
}

}  // namespace
}  // namespace kf
