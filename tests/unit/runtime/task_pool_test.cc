#include "federation/runtime/task_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "federation/runtime/thread_annotations.h"
#include "tests/support/waiting.h"

namespace kf {
namespace {

using test::Counter;
using test::Gate;
using test::ThreadsSeen;

// Values appended from pool threads, read by the test once a Counter says they are all in.
class Recorder {
 public:
  void add(int value) {
    MutexLock lock(mu_);
    values_.push_back(value);
  }
  std::vector<int> values() {
    MutexLock lock(mu_);
    return values_;
  }

 private:
  Mutex mu_;
  std::vector<int> values_ KF_GUARDED_BY(mu_);
};

TEST(TaskLaneTest, RunsItsTasksOneAtATimeInSubmissionOrder) {
  Recorder order;
  Counter running;
  Counter done;
  constexpr int kTasks = 200;
  TaskPool pool(4, "test");
  TaskLane lane(pool);
  for (int i = 0; i < kTasks; ++i) {
    lane.submit([&, i](bool cancelled) {
      ASSERT_FALSE(cancelled);
      running.add();
      order.add(i);
      running.add(-1);
      done.add();
    });
  }
  ASSERT_TRUE(done.waitFor(kTasks));
  std::vector<int> expected(kTasks);
  for (int i = 0; i < kTasks; ++i) expected[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(order.values(), expected);
  EXPECT_EQ(running.peak(), 1);
}

TEST(TaskLaneTest, StartsItsTasksInSubmissionOrderWhenSeveralMayRun) {
  Gate gate;
  Recorder starts;
  Counter started;
  Counter done;
  TaskPool pool(4, "test");
  TaskLane lane(pool, 2);
  for (int i = 0; i < 5; ++i) {
    lane.submit([&, i](bool) {
      starts.add(i);
      started.add();
      EXPECT_TRUE(gate.pass());
      done.add();
    });
  }
  ASSERT_TRUE(started.waitFor(2));
  std::vector<int> first = starts.values();
  std::sort(first.begin(), first.end());
  EXPECT_EQ(first, (std::vector<int>{0, 1}));
  gate.open();
  ASSERT_TRUE(done.waitFor(5));
}

TEST(TaskLaneTest, RunsAtMostMaxInFlightTasksAtOnce) {
  Gate gate;
  Counter running;
  Counter finished;
  TaskPool pool(4, "test");
  TaskLane lane(pool, 2);
  for (int i = 0; i < 6; ++i) {
    lane.submit([&](bool cancelled) {
      ASSERT_FALSE(cancelled);
      running.add();
      EXPECT_TRUE(gate.pass());
      running.add(-1);
      finished.add();
    });
  }
  ASSERT_TRUE(running.waitFor(2));
  EXPECT_EQ(lane.running(), 2u);
  // Two pool threads are free: a third task of the lane would have had every chance to start
  // by the time another lane's task has run on them.
  Counter other_done;
  TaskLane other(pool);
  other.submit([&](bool) { other_done.add(); });
  ASSERT_TRUE(other_done.waitFor(1));
  EXPECT_EQ(running.value(), 2);
  gate.open();
  ASSERT_TRUE(finished.waitFor(6));
  EXPECT_EQ(running.peak(), 2);
}

TEST(TaskLaneTest, ABlockedLaneDoesNotDelayAnother) {
  Gate gate;
  Counter started;
  Counter done;
  TaskPool pool(2, "test");
  TaskLane blocked(pool);
  TaskLane free(pool);
  blocked.submit([&](bool) {
    started.add();
    EXPECT_TRUE(gate.pass());
  });
  blocked.submit([&](bool) {});  // queued behind the blocked one
  ASSERT_TRUE(started.waitFor(1));
  for (int i = 1; i <= 20; ++i) {
    free.submit([&](bool cancelled) {
      EXPECT_FALSE(cancelled);
      done.add();
    });
  }
  EXPECT_TRUE(done.waitFor(20));
  gate.open();
}

// Verifies that lanes sharing a budget key have at most half the pool's threads in flight
// together, while lanes of another key and lanes without one still run.
TEST(TaskLaneTest, LanesSharingABudgetKeyRunAtMostHalfThePoolTogether) {
  Gate gate;
  Counter running;
  Counter finished;
  TaskPool pool(4, "test");
  std::vector<std::unique_ptr<TaskLane>> shared;
  for (int i = 0; i < 3; ++i) shared.push_back(std::make_unique<TaskLane>(pool, 2, "a"));
  for (auto& lane : shared) {
    for (int i = 0; i < 3; ++i) {
      lane->submit([&](bool cancelled) {
        ASSERT_FALSE(cancelled);
        running.add();
        EXPECT_TRUE(gate.pass());
        running.add(-1);
        finished.add();
      });
    }
  }
  ASSERT_TRUE(running.waitFor(2));
  Counter others_done;
  TaskLane other_key(pool, 2, "b");
  TaskLane no_key(pool, 2);
  for (int i = 0; i < 10; ++i) {
    other_key.submit([&](bool) { others_done.add(); });
    no_key.submit([&](bool) { others_done.add(); });
  }
  ASSERT_TRUE(others_done.waitFor(20));
  EXPECT_EQ(running.value(), 2);
  gate.open();
  ASSERT_TRUE(finished.waitFor(9));
  EXPECT_EQ(running.peak(), 2);
}

// Verifies that lanes sharing a budget take turns in the order they started waiting: a place
// given back goes to the first lane in line, before the lane that gave it claims again. (Later
// turns depend on which thread claims first, so only the first hand-over is checked.)
TEST(TaskLaneTest, LanesSharingABudgetTakeTurns) {
  Gate first;
  Recorder order;
  Counter started;
  Counter done;
  TaskPool pool(2, "test");  // a budget of one place
  TaskLane one(pool, 2, "k");
  TaskLane two(pool, 2, "k");
  one.submit([&](bool) {
    started.add();
    EXPECT_TRUE(first.pass());
    order.add(10);
    done.add();
  });
  ASSERT_TRUE(started.waitFor(1));
  for (int i = 1; i <= 2; ++i) {  // `two` starts waiting first
    two.submit([&, i](bool) {
      order.add(20 + i);
      done.add();
    });
    one.submit([&, i](bool) {
      order.add(10 + i);
      done.add();
    });
  }
  first.open();
  ASSERT_TRUE(done.waitFor(5));
  const std::vector<int> ran = order.values();
  ASSERT_EQ(ran.size(), 5U);
  EXPECT_EQ(ran[0], 10);
  EXPECT_EQ(ran[1], 21) << "the place went back to the lane that gave it";
}

TEST(TaskLaneTest, CloseCancelsQueuedTasksAndWaitsForRunningOnes) {
  Gate gate;
  Counter started;
  Counter cancelled_calls;
  std::atomic<bool> close_returned{false};
  std::atomic<int> first_cancelled{-1};
  TaskPool pool(2, "test");
  TaskLane lane(pool);
  lane.submit([&](bool cancelled) {
    first_cancelled = cancelled ? 1 : 0;
    started.add();
    EXPECT_TRUE(gate.pass());
    EXPECT_FALSE(close_returned.load()) << "close() returned while a task was running";
  });
  for (int i = 0; i < 3; ++i) {
    lane.submit([&](bool cancelled) {
      EXPECT_TRUE(cancelled);
      cancelled_calls.add();
    });
  }
  ASSERT_TRUE(started.waitFor(1));
  std::thread closer([&] {
    lane.close();
    close_returned = true;
  });
  // The queued tasks are cancelled while the running one still runs.
  ASSERT_TRUE(cancelled_calls.waitFor(3));
  gate.open();
  closer.join();
  EXPECT_EQ(first_cancelled, 0);
  EXPECT_EQ(lane.running(), 0u);
  lane.close();  // idempotent
}

TEST(TaskLaneTest, CloseWithoutWaitingCancelsQueuedTasksAndLeavesTheRunningOneToFinish) {
  Gate gate;
  Counter started;
  Counter finished;
  std::atomic<int> cancelled{0};
  TaskPool pool(2, "test");
  TaskLane lane(pool);
  lane.submit([&](bool) {
    started.add();
    EXPECT_TRUE(gate.pass());
    finished.add();
  });
  lane.submit([&](bool was_cancelled) { cancelled += was_cancelled ? 1 : 100; });
  ASSERT_TRUE(started.waitFor(1));
  lane.closeWithoutWaiting();  // would hang here if it waited: the gate is closed
  EXPECT_EQ(cancelled.load(), 1);
  EXPECT_EQ(lane.running(), 1u);
  gate.open();
  lane.close();  // waits for the running task
  EXPECT_EQ(finished.value(), 1);
}

TEST(TaskLaneTest, CloseFromInsideItsOwnTaskReturnsAndCancelsTheRest) {
  Gate gate;
  Counter closed;
  std::atomic<int> cancelled{0};
  TaskPool pool(2, "test");
  TaskLane lane(pool);
  lane.submit([&](bool) {
    EXPECT_TRUE(gate.pass());
    lane.close();
    closed.add();
  });
  lane.submit([&](bool was_cancelled) { cancelled += was_cancelled ? 1 : 100; });
  gate.open();
  ASSERT_TRUE(closed.waitFor(1));
  EXPECT_EQ(cancelled.load(), 1);
}

// The lane's state outlives the lane while one of its tasks runs: a task may destroy the object
// that owns the lane (a handler removing itself).
TEST(TaskLaneTest, ATaskMayDestroyItsOwnLane) {
  Gate gate;
  Counter done;
  std::atomic<int> cancelled{0};
  TaskPool pool(2, "test");
  auto lane = std::make_unique<TaskLane>(pool);
  lane->submit([&](bool) {
    EXPECT_TRUE(gate.pass());
    lane.reset();
    done.add();
  });
  lane->submit([&](bool was_cancelled) { cancelled += was_cancelled ? 1 : 100; });
  gate.open();
  ASSERT_TRUE(done.waitFor(1));
  EXPECT_EQ(cancelled.load(), 1);
}

TEST(TaskLaneTest, SubmitAfterCloseCancelsAtOnceOnTheCallersThread) {
  TaskPool pool(1, "test");
  TaskLane lane(pool);
  lane.close();
  bool was_cancelled = false;
  std::thread::id called_on;
  lane.submit([&](bool cancelled) {
    was_cancelled = cancelled;
    called_on = std::this_thread::get_id();
  });
  EXPECT_TRUE(was_cancelled);
  EXPECT_EQ(called_on, std::this_thread::get_id());
}

TEST(TaskPoolTest, ItsThreadCountIsFixedWhateverTheNumberOfLanes) {
  TaskPool pool(2, "test");
  EXPECT_EQ(pool.threads(), 2u);
  ThreadsSeen seen;
  Counter done;
  constexpr int kLanes = 50;
  std::vector<std::unique_ptr<TaskLane>> lanes;
  for (int i = 0; i < kLanes; ++i) {
    lanes.push_back(std::make_unique<TaskLane>(pool, 4));
    for (int j = 0; j < 4; ++j) {
      lanes.back()->submit([&](bool) {
        seen.record();
        done.add();
      });
    }
  }
  ASSERT_TRUE(done.waitFor(kLanes * 4));
  const std::set<std::thread::id> threads = seen.threads();
  EXPECT_LE(threads.size(), 2u);
  EXPECT_FALSE(threads.contains(std::this_thread::get_id()));
  EXPECT_EQ(pool.threads(), 2u);
}

// Stopped from its only thread (as a task that ends the process would), the pool still runs the
// job queued before the stop, cancels the lane task whose job would be posted after it, and
// cancels every later submit at once.
TEST(TaskPoolTest, StopRunsWhatIsQueuedThenCancelsLaterWork) {
  Gate gate;
  Counter results;
  std::atomic<int> queued_result{-1};
  std::atomic<int> follower_result{-1};
  auto pool = std::make_unique<TaskPool>(1, "test");
  TaskLane stopping(*pool);
  TaskLane waiting(*pool);
  stopping.submit([&](bool) {
    EXPECT_TRUE(gate.pass());
    pool->stop();  // returns: this thread is left to finish on its own
  });
  // Its job waits in the pool behind the stopping task.
  waiting.submit([&](bool cancelled) {
    queued_result = cancelled ? 1 : 0;
    results.add();
  });
  // Behind the stopping task in its lane: its job would be posted after the pool stopped.
  stopping.submit([&](bool cancelled) {
    follower_result = cancelled ? 1 : 0;
    results.add();
  });
  gate.open();
  ASSERT_TRUE(results.waitFor(2));
  EXPECT_EQ(queued_result, 0);
  EXPECT_EQ(follower_result, 1);

  // Later work is cancelled: at once, or when the lane's last task (still finishing on the
  // stopped pool's thread) returns.
  std::atomic<int> later_cancelled{0};
  waiting.submit([&](bool cancelled) {
    later_cancelled += cancelled ? 1 : 100;
    results.add();
  });
  ASSERT_TRUE(results.waitFor(3));
  pool.reset();  // the lanes outlive the pool
  waiting.submit([&](bool cancelled) {
    later_cancelled += cancelled ? 1 : 100;
    results.add();
  });
  ASSERT_TRUE(results.waitFor(4));
  EXPECT_EQ(later_cancelled.load(), 2);
}

TEST(TaskPoolTest, TheProcessWidePoolsHaveTheirFixedSizes) {
  EXPECT_EQ(memberIoPool().threads(), 16u);
  EXPECT_EQ(dispatchPool().threads(), 2u);
  EXPECT_EQ(&memberIoPool(), &memberIoPool());
}

}  // namespace
}  // namespace kf
