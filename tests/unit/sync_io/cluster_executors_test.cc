#include "sync/io/cluster_executors.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "tests/support/fake_clock.h"
#include "tests/support/waiting.h"

namespace kf::sync {
namespace {

using std::chrono::seconds;
using test::Counter;
using test::FakeClock;
using test::Gate;
using test::ThreadsSeen;

// Small enough that the tests see lanes share threads, large enough for two clusters at two
// operations each.
constexpr int kPoolThreads = 4;
constexpr Duration kQuiet = seconds(5);

TEST(ClusterExecutorsTest, RunsAtMostTheLimitOfTasksPerClusterAtOnce) {
  Gate gate;
  Counter running;
  Counter finished;
  TaskPool pool(kPoolThreads, "test");
  ClusterExecutors executors(pool, 2);
  for (int i = 0; i < 5; ++i) {
    executors.submit("a", [&](bool cancelled) {
      ASSERT_FALSE(cancelled);
      running.add();
      EXPECT_TRUE(gate.pass());
      running.add(-1);
      finished.add();
    });
  }
  ASSERT_TRUE(running.waitFor(2));
  EXPECT_EQ(executors.running("a"), 2u);
  // The pool has threads to spare: another cluster's task runs, and a third of a's has not
  // started meanwhile.
  Counter other_done;
  executors.submit("b", [&](bool) { other_done.add(); });
  ASSERT_TRUE(other_done.waitFor(1));
  EXPECT_EQ(running.value(), 2);
  gate.open();
  ASSERT_TRUE(finished.waitFor(5));
  EXPECT_EQ(running.peak(), 2);
}

TEST(ClusterExecutorsTest, ABlockedClusterDoesNotDelayAnother) {
  Gate gate;
  Counter started_a;
  Counter done_b;
  TaskPool pool(kPoolThreads, "test");
  ClusterExecutors executors(pool, 1);
  executors.submit("a", [&](bool) {
    started_a.add();
    EXPECT_TRUE(gate.pass());
  });
  executors.submit("a", [&](bool) {});  // queued behind the blocked one
  ASSERT_TRUE(started_a.waitFor(1));
  executors.submit("b", [&](bool cancelled) {
    EXPECT_FALSE(cancelled);
    done_b.add();
  });
  EXPECT_TRUE(done_b.waitFor(1));
  gate.open();
}

TEST(ClusterExecutorsTest, AClusterIsUnresponsiveOnceATaskWaitedTheQuietPeriodAndNoneReturned) {
  FakeClock clock;
  Gate gate;
  Counter started;
  TaskPool pool(kPoolThreads, "test");
  ClusterExecutors executors(pool, 1, clock);
  EXPECT_FALSE(executors.unresponsive("a", kQuiet));  // nothing was ever asked of it
  executors.submit("a", [](bool) {});                 // answered at once, at time 0
  executors.submit("a", [&](bool) {                   // runs once the first one has returned
    started.add();
    EXPECT_TRUE(gate.pass());
  });
  ASSERT_TRUE(started.waitFor(1));
  clock.advance(kQuiet - seconds(1));
  EXPECT_FALSE(executors.unresponsive("a", kQuiet));
  clock.advance(seconds(1));
  EXPECT_TRUE(executors.unresponsive("a", kQuiet));
  EXPECT_FALSE(executors.unresponsive("b", kQuiet));
  gate.open();
  executors.stop();
  EXPECT_FALSE(executors.unresponsive("a", kQuiet));  // nothing outstanding any more
}

TEST(ClusterExecutorsTest, ATaskThatReturnsWithinTheQuietPeriodKeepsItsClusterResponsive) {
  FakeClock clock;
  Gate gate;
  Counter started;
  Counter done;
  TaskPool pool(kPoolThreads, "test");
  ClusterExecutors executors(pool, 2, clock);
  executors.submit("a", [&](bool) {
    started.add();
    EXPECT_TRUE(gate.pass());
  });
  ASSERT_TRUE(started.waitFor(1));
  clock.advance(kQuiet);
  EXPECT_TRUE(executors.unresponsive("a", kQuiet));
  // A slow request, not a silent server: another request is answered now. The second quick task
  // takes the slot the first one frees, so once it has run the first one's return is recorded.
  executors.submit("a", [&](bool) { done.add(); });
  executors.submit("a", [&](bool) { done.add(); });
  ASSERT_TRUE(done.waitFor(2));
  EXPECT_FALSE(executors.unresponsive("a", kQuiet));
  gate.open();
}

// Verifies that a cluster that does not answer, with every federated type (an executor each)
// busy with it, holds at most half the pool's threads: another cluster's operations of every type
// still run. Before the shared budget, four types at two operations each held all four threads.
TEST(ClusterExecutorsTest, AClusterBlockedForEveryTypeHoldsAtMostHalfThePool) {
  Gate gate;
  Counter running_frozen;
  Counter finished;
  Counter done_ok;
  TaskPool pool(kPoolThreads, "test");
  constexpr int kTypes = 4;
  std::vector<std::unique_ptr<ClusterExecutors>> types;
  for (int t = 0; t < kTypes; ++t) types.push_back(std::make_unique<ClusterExecutors>(pool, 2));
  for (auto& type : types) {
    for (int i = 0; i < 2; ++i) {
      type->submit("frozen", [&](bool cancelled) {
        if (cancelled) {
          finished.add();
          return;
        }
        running_frozen.add();
        EXPECT_TRUE(gate.pass());
        running_frozen.add(-1);
        finished.add();
      });
    }
  }
  ASSERT_TRUE(running_frozen.waitFor(kPoolThreads / 2));
  for (auto& type : types) {
    type->submit("ok", [&](bool cancelled) {
      EXPECT_FALSE(cancelled);
      done_ok.add();
    });
  }
  EXPECT_TRUE(done_ok.waitFor(kTypes));
  EXPECT_EQ(running_frozen.value(), kPoolThreads / 2);
  gate.open();
  ASSERT_TRUE(finished.waitFor(kTypes * 2));
  EXPECT_EQ(running_frozen.peak(), kPoolThreads / 2);
}

// However many clusters there are, their tasks run on the pool's threads only.
TEST(ClusterExecutorsTest, RunsEveryClustersTasksOnThePoolsThreads) {
  ThreadsSeen seen;
  Counter done;
  TaskPool pool(2, "test");
  ClusterExecutors executors(pool, 4);
  constexpr int kClusters = 40;
  for (int i = 0; i < kClusters; ++i) {
    for (int j = 0; j < 4; ++j) {
      executors.submit("cluster-" + std::to_string(i), [&](bool cancelled) {
        EXPECT_FALSE(cancelled);
        seen.record();
        done.add();
      });
    }
  }
  ASSERT_TRUE(done.waitFor(kClusters * 4));
  const std::set<std::thread::id> threads = seen.threads();
  EXPECT_LE(threads.size(), 2u);
  EXPECT_FALSE(threads.contains(std::this_thread::get_id()));
  EXPECT_EQ(pool.threads(), 2u);
  EXPECT_EQ(executors.running("unknown"), 0u);
}

TEST(ClusterExecutorsTest, StopCancelsQueuedTasksAndWaitsForRunningOnes) {
  Gate gate;
  Counter started;
  std::atomic<int> first_cancelled{-1};
  std::atomic<int> second_cancelled{-1};
  Counter second_called;
  TaskPool pool(kPoolThreads, "test");
  ClusterExecutors executors(pool, 1);
  executors.submit("a", [&](bool cancelled) {
    first_cancelled = cancelled ? 1 : 0;
    started.add();
    EXPECT_TRUE(gate.pass());
  });
  executors.submit("a", [&](bool cancelled) {
    second_cancelled = cancelled ? 1 : 0;
    second_called.add();
  });
  ASSERT_TRUE(started.waitFor(1));
  std::thread stopper([&] { executors.stop(); });
  // The queued task is cancelled while the running one still runs.
  ASSERT_TRUE(second_called.waitFor(1));
  EXPECT_EQ(second_cancelled, 1);
  gate.open();
  stopper.join();
  EXPECT_EQ(first_cancelled, 0);
}

TEST(ClusterExecutorsTest, SubmitAfterStopCancelsAtOnce) {
  TaskPool pool(1, "test");
  ClusterExecutors executors(pool, 1);
  executors.stop();
  bool was_cancelled = false;
  executors.submit("a", [&](bool cancelled) { was_cancelled = cancelled; });
  EXPECT_TRUE(was_cancelled);
  executors.stop();  // idempotent
}

// Verifies forgetting a cluster (it left the federation) cancels its queued tasks at once without
// waiting for its running task, drops its lane, and leaves other clusters alone; a later submit
// for the name starts a new lane.
TEST(ClusterExecutorsTest, ForgettingAClusterCancelsItsQueueAndDropsItsLane) {
  Gate gate;
  Counter running;
  Counter finished;
  std::atomic<int> cancelled{0};
  TaskPool pool(kPoolThreads, "test");
  ClusterExecutors executors(pool, 1);
  executors.submit("a", [&](bool was_cancelled) {
    ASSERT_FALSE(was_cancelled);
    running.add();
    EXPECT_TRUE(gate.pass());
    finished.add();
  });
  ASSERT_TRUE(running.waitFor(1));
  executors.submit("a", [&](bool was_cancelled) { cancelled += was_cancelled ? 1 : 100; });
  executors.submit("b", [&](bool was_cancelled) {
    EXPECT_FALSE(was_cancelled);
    finished.add();
  });
  ASSERT_TRUE(finished.waitFor(1));  // b runs while a's task is blocked

  executors.forget("a");  // would hang if it waited: a's task waits for the gate
  EXPECT_EQ(cancelled.load(), 1);
  EXPECT_EQ(executors.running("a"), 0U);
  gate.open();
  ASSERT_TRUE(finished.waitFor(2));  // the running task finished

  executors.submit("a", [&](bool was_cancelled) {
    EXPECT_FALSE(was_cancelled);
    finished.add();
  });
  ASSERT_TRUE(finished.waitFor(3));
  executors.forget("unknown");  // harmless
}

// A forgotten cluster's running task still uses what the executors' owner gave it: stop() waits
// for it.
TEST(ClusterExecutorsTest, StopWaitsForTheRunningTasksOfForgottenClusters) {
  Gate gate;
  Counter started;
  std::atomic<bool> stop_returned{false};
  std::atomic<int> finished_before_stop_returned{-1};
  TaskPool pool(kPoolThreads, "test");
  ClusterExecutors executors(pool, 1);
  executors.submit("a", [&](bool) {
    started.add();
    EXPECT_TRUE(gate.pass());
    finished_before_stop_returned = stop_returned ? 0 : 1;
  });
  ASSERT_TRUE(started.waitFor(1));
  executors.forget("a");
  std::thread stopper([&] {
    executors.stop();
    stop_returned = true;
  });
  gate.open();
  stopper.join();
  EXPECT_EQ(finished_before_stop_returned, 1);
}

}  // namespace
}  // namespace kf::sync
