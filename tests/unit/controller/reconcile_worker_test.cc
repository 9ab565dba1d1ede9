#include "federation/controller/reconcile_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "federation/metrics/kubefed_metrics.h"
#include "tests/unit/controller/worker_test_support.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test::ReconcileLog;
using test::TimerWatchingClock;

constexpr auto kOk = ReconcileResult::kOk;
constexpr auto kError = ReconcileResult::kError;
constexpr auto kNeedsRecheck = ReconcileResult::kNeedsRecheck;
constexpr auto kNotSynced = ReconcileResult::kNotSynced;

ReconcileWorkerOptions testOptions(const std::string& name) {
  return {.name = name,
          .concurrency = 1,
          .retry_delay = seconds(10),
          .cluster_sync_delay = seconds(20),
          .initial_backoff = seconds(5),
          .max_backoff = seconds(60)};
}

// One worker thread, so keys are reconciled in queue order and a sentinel key queued now is
// reconciled only after every key that was ready before it.
class ReconcileWorkerTest : public ::testing::Test {
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
  ReconcileWorker worker_{testOptions("reconcile-worker-test"), log_.func(), clock_};
  int sentinels_ = 0;
};

// Verifies §6 worker_test: enqueues of a queued key collapse into one reconcile, and enqueues
// during its reconcile into exactly one more.
TEST(ReconcileWorkerDedupTest, TenQueuedAndFiveDuringReconcileGiveTwoReconciles) {
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  ReconcileWorker* self = nullptr;
  ReconcileFunc base = log.func();
  ReconcileWorker worker(
      testOptions("worker-dedup-test"),
      [&](const std::string& key) {
        const bool first = key == "a" && log.count("a") == 0;
        const ReconcileResult result = base(key);
        if (first) {
          for (int i = 0; i < 5; ++i) self->enqueue("a");
        }
        return result;
      },
      clock);
  self = &worker;
  for (int i = 0; i < 10; ++i) worker.enqueue("a");
  worker.start();

  ASSERT_TRUE(log.waitForCount("a", 2));
  // A third reconcile would have been queued before this key.
  worker.enqueue("z");
  ASSERT_TRUE(log.waitForCount("z", 1));
  worker.stop();
  EXPECT_EQ(log.count("a"), 2U);
}

// Verifies that keys queued before start() wait for it and are then reconciled.
TEST_F(ReconcileWorkerTest, KeysQueuedBeforeStartAreReconciledAfterIt) {
  worker_.enqueue("a");
  worker_.enqueue("b");
  EXPECT_EQ(log_.count("a"), 0U);
  worker_.start();
  drain();
  EXPECT_EQ(orderWithoutSentinels(), (std::vector<std::string>{"a", "b"}));
}

// Verifies the delaying deliverer: nothing early, and delivery-time order.
TEST_F(ReconcileWorkerTest, DelayedKeysArriveInDeliveryTimeOrderAndNeverEarly) {
  worker_.start();
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
TEST_F(ReconcileWorkerTest, EarlierRedeliveryOfWaitingKeyMovesItEarlier) {
  worker_.start();
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
TEST_F(ReconcileWorkerTest, LaterRedeliveryOfWaitingKeyIsIgnored) {
  worker_.start();
  const SteadyTime start = clock_.now();
  worker_.enqueueAfter("a", seconds(2));
  worker_.enqueueAfter("a", seconds(10));
  clock_.advance(seconds(2));
  ASSERT_TRUE(log_.waitForCount("a", 1));
  EXPECT_EQ(log_.times("a")[0] - start, seconds(2));
}

// Verifies that an immediate enqueue does not wait for a pending delayed delivery of the key.
TEST_F(ReconcileWorkerTest, EnqueueNowOvertakesDelayedDelivery) {
  worker_.start();
  worker_.enqueueAfter("a", seconds(30));
  worker_.enqueue("a");
  ASSERT_TRUE(log_.waitForCount("a", 1));
}

// Verifies §2.2: each failure doubles the key's delay from 5 s up to the 60 s cap.
TEST_F(ReconcileWorkerTest, ErrorRetriesBackOffFromInitialDoublingUpToMax) {
  log_.script("a", std::vector<ReconcileResult>(8, kError));
  worker_.start();
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
TEST_F(ReconcileWorkerTest, EnqueueResetsBackoff) {
  log_.script("a", {kError, kError, kError, kOk});
  worker_.start();
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
TEST_F(ReconcileWorkerTest, NeedsRecheckRetriesAfterRetryDelayAndResetsBackoff) {
  log_.script("a", {kError, kError, kNeedsRecheck, kError, kOk});
  worker_.start();
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
TEST_F(ReconcileWorkerTest, NotSyncedRetriesAfterClusterSyncDelay) {
  log_.script("a", {kNotSynced, kOk});
  worker_.start();
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
TEST_F(ReconcileWorkerTest, OkIsNotRetried) {
  worker_.start();
  worker_.enqueue("a");
  ASSERT_TRUE(log_.waitForCount("a", 1));
  drain();
  EXPECT_EQ(clock_.pendingTimers(), 0U);
  clock_.advance(seconds(120));
  drain();
  EXPECT_EQ(log_.count("a"), 1U);
}

// Verifies that a throwing reconcile counts as an error (retried with backoff), and the worker
// thread survives it.
TEST(ReconcileWorkerThrowTest, ThrowingReconcileIsRetriedWithBackoff) {
  TimerWatchingClock clock;
  std::atomic<int> calls{0};
  std::promise<void> second_call;
  ReconcileWorker worker(
      testOptions("worker-throw-test"),
      [&](const std::string&) -> ReconcileResult {
        if (++calls == 1) throw std::runtime_error("boom");
        second_call.set_value();
        return kOk;
      },
      clock);
  worker.start();
  worker.enqueue("a");
  ASSERT_TRUE(clock.waitForArmedTimers(1));
  clock.advance(seconds(5));
  ASSERT_EQ(second_call.get_future().wait_for(test::kWaitLimit), std::future_status::ready);
}

// Verifies N workers: up to `concurrency` keys at once, never the same key twice at once.
TEST(ReconcileWorkerConcurrencyTest, RunsUpToConcurrencyKeysButNeverOneKeyTwice) {
  constexpr int kConcurrency = 3;
  TimerWatchingClock clock;
  Mutex mu;
  std::condition_variable cv;
  std::multiset<std::string> in_flight;
  std::size_t max_in_flight = 0;
  bool overlap = false;
  int done = 0;
  bool readded = false;
  ReconcileWorker* self = nullptr;

  ReconcileWorkerOptions options = testOptions("worker-concurrency-test");
  options.concurrency = kConcurrency;
  ReconcileWorker worker(
      options,
      [&](const std::string& key) {
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
      },
      clock);
  self = &worker;
  for (int i = 0; i < 6; ++i) worker.enqueue("k" + std::to_string(i));
  worker.start();

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
TEST(ReconcileWorkerStopTest, StopWaitsForReconcileInProgress) {
  TimerWatchingClock clock;
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> finished{false};
  ReconcileWorker worker(
      testOptions("worker-stop-test"),
      [&](const std::string&) {
        entered.set_value();
        released.wait();
        finished = true;
        return kOk;
      },
      clock);
  worker.start();
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
TEST_F(ReconcileWorkerTest, NothingIsReconciledAfterStop) {
  worker_.start();
  worker_.enqueueAfter("delayed", seconds(1));
  worker_.stop();
  worker_.enqueue("late");
  worker_.start();
  clock_.advance(seconds(5));
  EXPECT_TRUE(log_.order().empty());
  EXPECT_EQ(clock_.pendingTimers(), 0U);
  worker_.stop();  // idempotent
}

// Verifies that a worker never started is stopped cleanly by its destructor.
TEST(ReconcileWorkerLifetimeTest, DestroyingAnUnstartedWorkerWithQueuedKeysIsClean) {
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  {
    ReconcileWorker worker(testOptions("worker-lifetime-test"), log.func(), clock);
    worker.enqueue("a");
    worker.enqueueAfter("b", seconds(1));
  }
  clock.advance(seconds(2));
  EXPECT_TRUE(log.order().empty());
}

// Verifies the workqueue metrics are exported under the worker's name.
TEST_F(ReconcileWorkerTest, ExportsWorkqueueMetricsUnderItsName) {
  log_.script("a", {kError, kOk});
  worker_.start();
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

}  // namespace
}  // namespace kf
