#include "federation/workqueue/delaying_queue.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class DelayingQueueTest : public ::testing::Test {
 protected:
  test::FakeClock clock_;
  DelayingQueue queue_{clock_};
};

TEST_F(DelayingQueueTest, AddAfterIsInvisibleUntilDelayElapses) {
  queue_.addAfter("a", seconds(1));
  EXPECT_EQ(queue_.len(), 0U);
  EXPECT_EQ(queue_.numWaiting(), 1U);

  clock_.advance(milliseconds(999));
  EXPECT_EQ(queue_.len(), 0U);

  clock_.advance(milliseconds(1));
  ASSERT_EQ(queue_.len(), 1U);  // ASSERT: get() would block forever on an empty queue
  EXPECT_EQ(queue_.numWaiting(), 0U);
  EXPECT_EQ(queue_.get(), "a");
}

TEST_F(DelayingQueueTest, NonPositiveDelayAddsNow) {
  queue_.addAfter("a", Duration::zero());
  queue_.addAfter("b", -seconds(1));
  EXPECT_EQ(queue_.len(), 2U);
  EXPECT_EQ(clock_.pendingTimers(), 0U);
}

TEST_F(DelayingQueueTest, EarlierDeadlineWinsForWaitingKey) {
  queue_.addAfter("a", seconds(10));
  queue_.addAfter("a", seconds(1));
  EXPECT_EQ(queue_.numWaiting(), 1U);

  clock_.advance(seconds(1));
  ASSERT_EQ(queue_.len(), 1U);
  ASSERT_EQ(queue_.get(), "a");
  queue_.done("a");

  // The superseded 10s deadline must not add the key a second time.
  clock_.advance(seconds(20));
  EXPECT_EQ(queue_.len(), 0U);
}

TEST_F(DelayingQueueTest, LaterDeadlineDoesNotPostponeWaitingKey) {
  queue_.addAfter("a", seconds(1));
  queue_.addAfter("a", seconds(10));
  clock_.advance(seconds(1));
  EXPECT_EQ(queue_.len(), 1U);
}

TEST_F(DelayingQueueTest, DelayedKeysArriveInDeadlineOrder) {
  queue_.addAfter("late", seconds(3));
  queue_.addAfter("early", seconds(1));
  queue_.addAfter("middle", seconds(2));

  clock_.advance(seconds(1));
  EXPECT_EQ(queue_.len(), 1U);
  clock_.advance(seconds(5));
  ASSERT_EQ(queue_.len(), 3U);
  EXPECT_EQ(queue_.get(), "early");
  EXPECT_EQ(queue_.get(), "middle");
  EXPECT_EQ(queue_.get(), "late");
}

TEST_F(DelayingQueueTest, DelayedKeyIsDeduplicatedWithQueuedKey) {
  queue_.add("a");
  queue_.addAfter("a", seconds(1));
  clock_.advance(seconds(1));
  EXPECT_EQ(queue_.len(), 1U);
}

TEST_F(DelayingQueueTest, DueKeyWakesBlockedGetter) {
  auto getter = std::async(std::launch::async, [this] { return queue_.get(); });
  queue_.addAfter("a", seconds(1));
  EXPECT_EQ(getter.wait_for(milliseconds(20)), std::future_status::timeout);

  clock_.advance(seconds(1));
  const auto status = getter.wait_for(seconds(30));
  queue_.shutDown();  // releases the getter if the key never arrived, so the test cannot hang
  ASSERT_EQ(status, std::future_status::ready);
  EXPECT_EQ(getter.get(), "a");
}

TEST_F(DelayingQueueTest, ShutDownDropsWaitingKeysAndTimers) {
  queue_.addAfter("a", seconds(1));
  queue_.shutDown();
  EXPECT_EQ(queue_.numWaiting(), 0U);
  EXPECT_EQ(clock_.pendingTimers(), 0U);

  queue_.addAfter("b", seconds(1));
  clock_.advance(seconds(2));
  EXPECT_EQ(queue_.len(), 0U);
  EXPECT_EQ(queue_.get(), std::nullopt);
}

TEST(DelayingQueueLifetimeTest, DestructionCancelsPendingTimer) {
  test::FakeClock clock;
  {
    DelayingQueue queue(clock);
    queue.addAfter("a", seconds(1));
    EXPECT_EQ(clock.pendingTimers(), 1U);
  }
  EXPECT_EQ(clock.pendingTimers(), 0U);
  clock.advance(seconds(2));  // nothing left to fire into the destroyed queue
}

TEST(DelayingQueueLifetimeTest, WorksWithRealClock) {
  DelayingQueue queue(realClock());
  auto getter = std::async(std::launch::async, [&] { return queue.get(); });
  queue.addAfter("a", milliseconds(1));
  const auto status = getter.wait_for(seconds(30));
  queue.shutDown();  // releases the getter if the key never arrived, so the test cannot hang
  ASSERT_EQ(status, std::future_status::ready);
  EXPECT_EQ(getter.get(), "a");
}

}  // namespace
}  // namespace kf
