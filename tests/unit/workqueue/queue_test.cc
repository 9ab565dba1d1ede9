#include "federation/workqueue/queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr auto kDeadline = seconds(30);

// Declared after the futures of a test, so it runs first on the way out: blocked getters are
// released even when an expectation failed, instead of hanging in the futures' destructors.
class ShutDownAtScopeExit {
 public:
  explicit ShutDownAtScopeExit(Queue& queue) : queue_(queue) {}
  ~ShutDownAtScopeExit() { queue_.shutDown(); }
  ShutDownAtScopeExit(const ShutDownAtScopeExit&) = delete;
  ShutDownAtScopeExit& operator=(const ShutDownAtScopeExit&) = delete;

 private:
  Queue& queue_;
};

std::future<std::optional<std::string>> getAsync(Queue& queue) {
  return std::async(std::launch::async, [&queue] { return queue.get(); });
}

// Bounded busy-wait for state another thread sets; used instead of sleeping.
template <typename Pred>
bool eventually(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + kDeadline;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

TEST(QueueTest, AddDeduplicatesWaitingKey) {
  Queue queue;
  queue.add("a");
  queue.add("a");
  queue.add("b");
  EXPECT_EQ(queue.len(), 2U);
  EXPECT_EQ(queue.get(), "a");
  EXPECT_EQ(queue.get(), "b");
  EXPECT_EQ(queue.len(), 0U);
}

TEST(QueueTest, GetHandsOutKeysInFifoOrder) {
  Queue queue;
  for (const char* key : {"c", "a", "b"}) queue.add(key);
  EXPECT_EQ(queue.get(), "c");
  EXPECT_EQ(queue.get(), "a");
  EXPECT_EQ(queue.get(), "b");
}

TEST(QueueTest, ReAddDuringProcessingRequeuesOnceAfterDone) {
  Queue queue;
  queue.add("a");
  ASSERT_EQ(queue.get(), "a");

  queue.add("a");
  queue.add("a");
  EXPECT_EQ(queue.len(), 0U) << "a key being processed must not be handed out again";

  queue.done("a");
  ASSERT_EQ(queue.len(), 1U);
  EXPECT_EQ(queue.get(), "a");
  queue.done("a");
  EXPECT_EQ(queue.len(), 0U);
}

TEST(QueueTest, DoneWithoutReAddDoesNotRequeue) {
  Queue queue;
  queue.add("a");
  ASSERT_EQ(queue.get(), "a");
  queue.done("a");
  EXPECT_EQ(queue.len(), 0U);
}

TEST(QueueTest, NeverHandsOneKeyToTwoWorkersAtOnce) {
  Queue queue;
  constexpr int kWorkers = 4;
  constexpr int kRounds = 2000;
  const std::vector<std::string> keys = {"a", "b", "c"};

  std::mutex mu;
  std::set<std::string> in_flight;
  std::atomic<int> overlaps{0};
  std::atomic<int> processed{0};
  auto work = [&] {
    while (std::optional<std::string> key = queue.get()) {
      {
        std::lock_guard lock(mu);
        if (!in_flight.insert(*key).second) ++overlaps;
      }
      // Re-adding a key while holding it is exactly what must not produce a second hand-out.
      queue.add(*key);
      std::this_thread::yield();
      {
        std::lock_guard lock(mu);
        in_flight.erase(*key);
      }
      ++processed;
      queue.done(*key);
    }
  };

  std::vector<std::future<void>> workers;
  for (int i = 0; i < kWorkers; ++i) workers.push_back(std::async(std::launch::async, work));
  for (int round = 0; round < kRounds; ++round) {
    for (const std::string& key : keys) queue.add(key);
  }
  queue.shutDown();

  for (auto& worker : workers) {
    ASSERT_EQ(worker.wait_for(kDeadline), std::future_status::ready);
  }
  EXPECT_EQ(overlaps, 0);
  EXPECT_GE(processed, static_cast<int>(keys.size()));
}

TEST(QueueTest, ShutDownWakesBlockedGetters) {
  Queue queue;
  std::vector<std::future<std::optional<std::string>>> getters;
  for (int i = 0; i < 3; ++i) getters.push_back(getAsync(queue));
  ShutDownAtScopeExit guard(queue);
  for (auto& getter : getters) {
    EXPECT_EQ(getter.wait_for(milliseconds(20)), std::future_status::timeout);
  }

  queue.shutDown();
  for (auto& getter : getters) {
    ASSERT_EQ(getter.wait_for(kDeadline), std::future_status::ready);
    EXPECT_EQ(getter.get(), std::nullopt);
  }
}

TEST(QueueTest, BlockedGetterReceivesLaterAdd) {
  Queue queue;
  auto getter = getAsync(queue);
  ShutDownAtScopeExit guard(queue);
  queue.add("a");
  ASSERT_EQ(getter.wait_for(kDeadline), std::future_status::ready);
  EXPECT_EQ(getter.get(), "a");
}

TEST(QueueTest, AddAfterShutDownIsIgnored) {
  Queue queue;
  EXPECT_FALSE(queue.shuttingDown());
  queue.shutDown();
  EXPECT_TRUE(queue.shuttingDown());
  queue.add("a");
  EXPECT_EQ(queue.len(), 0U);
  EXPECT_EQ(queue.get(), std::nullopt);
}

TEST(QueueTest, GetDrainsKeysQueuedBeforeShutDown) {
  Queue queue;
  queue.add("a");
  queue.shutDown();
  EXPECT_EQ(queue.get(), "a");
  EXPECT_EQ(queue.get(), std::nullopt);
}

TEST(QueueTest, ShutDownWithDrainWaitsForDone) {
  Queue queue;
  queue.add("a");
  ASSERT_EQ(queue.get(), "a");

  auto drained = std::async(std::launch::async, [&] { queue.shutDownWithDrain(); });
  EXPECT_TRUE(eventually([&] { return queue.shuttingDown(); }));
  EXPECT_EQ(drained.wait_for(milliseconds(50)), std::future_status::timeout)
      << "shutDownWithDrain returned while a key was still being processed";

  queue.done("a");
  EXPECT_EQ(drained.wait_for(kDeadline), std::future_status::ready);
}

TEST(QueueTest, ShutDownWithDrainReturnsAtOnceWhenIdle) {
  Queue queue;
  queue.add("a");  // queued but not being processed: nothing to wait for
  auto drained = std::async(std::launch::async, [&] { queue.shutDownWithDrain(); });
  EXPECT_EQ(drained.wait_for(kDeadline), std::future_status::ready);
  EXPECT_TRUE(queue.shuttingDown());
}

}  // namespace
}  // namespace kf
