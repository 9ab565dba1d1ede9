#include "sync/cluster_executors.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/support/waiting.h"

namespace kf::sync {
namespace {

using test::Counter;
using test::Gate;

TEST(ClusterExecutorsTest, RunsAtMostTheLimitOfTasksPerClusterAtOnce) {
  Gate gate;
  Counter running;
  Counter finished;
  ClusterExecutors executors(2);
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
  EXPECT_EQ(executors.threadCount("a"), 2u);
  gate.open();
  ASSERT_TRUE(finished.waitFor(5));
  EXPECT_EQ(running.peak(), 2);
  EXPECT_EQ(executors.threadCount("a"), 2u);
}

TEST(ClusterExecutorsTest, ABlockedClusterDoesNotDelayAnother) {
  Gate gate;
  Counter started_a;
  Counter done_b;
  ClusterExecutors executors(1);
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

TEST(ClusterExecutorsTest, StartsThreadsOnlyForClustersWithWorkAndWithinTheLimit) {
  Counter done;
  ClusterExecutors executors(4);
  EXPECT_EQ(executors.threadCount("a"), 0u);
  for (int i = 1; i <= 8; ++i) {
    executors.submit("a", [&](bool) { done.add(); });
    ASSERT_TRUE(done.waitFor(i));
  }
  EXPECT_GE(executors.threadCount("a"), 1u);
  EXPECT_LE(executors.threadCount("a"), 4u);
  EXPECT_EQ(executors.threadCount("b"), 0u);
}

TEST(ClusterExecutorsTest, StopCancelsQueuedTasksAndWaitsForRunningOnes) {
  Gate gate;
  Counter started;
  std::atomic<int> first_cancelled{-1};
  std::atomic<int> second_cancelled{-1};
  Counter second_called;
  ClusterExecutors executors(1);
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
  ClusterExecutors executors(1);
  executors.stop();
  bool was_cancelled = false;
  executors.submit("a", [&](bool cancelled) { was_cancelled = cancelled; });
  EXPECT_TRUE(was_cancelled);
  executors.stop();  // idempotent
}

// Verifies forgetting a cluster (it left the federation) cancels its queued tasks at once, lets
// its running task finish, drops its threads, and leaves other clusters alone; a later submit for
// the name starts a new lane.
TEST(ClusterExecutorsTest, ForgettingAClusterCancelsItsQueueAndRetiresItsThreads) {
  Gate gate;
  Counter running;
  Counter finished;
  std::atomic<int> cancelled{0};
  ClusterExecutors executors(1);
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

  executors.forget("a");
  EXPECT_EQ(cancelled.load(), 1);
  EXPECT_EQ(executors.threadCount("a"), 0U);
  EXPECT_EQ(executors.threadCount("b"), 1U);
  gate.open();
  ASSERT_TRUE(finished.waitFor(2));  // the running task finished

  executors.submit("a", [&](bool was_cancelled) {
    EXPECT_FALSE(was_cancelled);
    finished.add();
  });
  ASSERT_TRUE(finished.waitFor(3));
  EXPECT_EQ(executors.threadCount("a"), 1U);
  executors.forget("unknown");  // harmless
}

}  // namespace
}  // namespace kf::sync
