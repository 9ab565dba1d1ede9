#include "federation/runtime/clock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(FakeClockTest, AdvanceMovesNowByStep) {
  test::FakeClock clock;
  const SteadyTime start = clock.now();
  const auto wall_start = clock.wallNow();
  clock.advance(seconds(5));
  EXPECT_EQ(clock.now() - start, seconds(5));
  EXPECT_EQ(clock.wallNow() - wall_start, seconds(5));
}

TEST(FakeClockTest, FiresTimersOnlyOnceDueAndInDeadlineOrder) {
  test::FakeClock clock;
  std::vector<int> fired;
  auto late = clock.runAfter(seconds(2), [&] { fired.push_back(2); });
  auto early = clock.runAfter(seconds(1), [&] { fired.push_back(1); });

  clock.advance(milliseconds(999));
  EXPECT_TRUE(fired.empty());
  clock.advance(seconds(5));
  EXPECT_EQ(fired, (std::vector<int>{1, 2}));
  EXPECT_EQ(clock.pendingTimers(), 0U);
}

TEST(FakeClockTest, TimerSeesItsOwnDeadlineAsNow) {
  test::FakeClock clock;
  const SteadyTime start = clock.now();
  SteadyTime seen{};
  auto timer = clock.runAfter(seconds(1), [&] { seen = clock.now(); });
  clock.advance(seconds(10));
  EXPECT_EQ(seen - start, seconds(1));
}

TEST(FakeClockTest, FiresTimersScheduledByTimersWithinSameAdvance) {
  test::FakeClock clock;
  int fired = 0;
  TimerHandlePtr second;
  auto first = clock.runAfter(seconds(1), [&] {
    ++fired;
    second = clock.runAfter(seconds(1), [&] { ++fired; });
  });
  clock.advance(seconds(2));
  EXPECT_EQ(fired, 2);
}

TEST(FakeClockTest, CancelledAndDestroyedHandlesNeverFire) {
  test::FakeClock clock;
  int fired = 0;
  auto cancelled = clock.runAfter(seconds(1), [&] { ++fired; });
  cancelled->cancel();
  clock.runAfter(seconds(1), [&] { ++fired; });  // handle dropped at once
  EXPECT_EQ(clock.pendingTimers(), 0U);
  clock.advance(seconds(2));
  EXPECT_EQ(fired, 0);
}

TEST(RealClockTest, NowIsMonotonic) {
  Clock& clock = realClock();
  const SteadyTime first = clock.now();
  EXPECT_LE(first, clock.now());
}

TEST(RealClockTest, RunAfterFiresOnTimerThread) {
  auto fired = std::make_shared<std::promise<void>>();
  auto future = fired->get_future();
  auto timer = realClock().runAfter(milliseconds(1), [fired] { fired->set_value(); });
  EXPECT_EQ(future.wait_for(seconds(10)), std::future_status::ready);
}

TEST(RealClockTest, CancelledTimerDoesNotFire) {
  // A first timer holds the timer thread, so the cancelled one cannot fire before cancel() however
  // slowly this thread runs (sanitizers, a loaded machine); its deadline has passed once released.
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  auto holder = realClock().runAfter(milliseconds(0), [&entered, released] {
    entered.set_value();
    released.wait();
  });
  entered.get_future().wait();

  auto cancelled_fired = std::make_shared<std::atomic<bool>>(false);
  auto later_fired = std::make_shared<std::promise<void>>();
  auto later = later_fired->get_future();
  auto cancelled =
      realClock().runAfter(milliseconds(1), [cancelled_fired] { *cancelled_fired = true; });
  auto marker = realClock().runAfter(milliseconds(5), [later_fired] { later_fired->set_value(); });
  cancelled->cancel();
  release.set_value();

  // Timers fire in deadline order, so once the later one has fired the cancelled one would have.
  ASSERT_EQ(later.wait_for(seconds(10)), std::future_status::ready);
  EXPECT_FALSE(*cancelled_fired);
}

// Verifies cancel() from another thread returns only after a callback in progress has finished,
// which is what lets owners capture `this` in timer callbacks.
void expectCancelWaitsForCallbackInProgress(Clock& clock, const std::function<void()>& fire) {
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> finished{false};
  TimerHandlePtr timer = clock.runAfter(milliseconds(1), [&] {
    entered.set_value();
    released.wait();
    finished = true;
  });
  std::thread firing(fire);
  entered.get_future().wait();
  std::promise<void> cancelling;
  bool finished_when_cancel_returned = false;
  std::thread canceller([&] {
    cancelling.set_value();
    timer->cancel();
    finished_when_cancel_returned = finished;
  });
  cancelling.get_future().wait();
  release.set_value();
  canceller.join();
  firing.join();
  EXPECT_TRUE(finished_when_cancel_returned);
}

TEST(RealClockTest, CancelWaitsForACallbackInProgress) {
  expectCancelWaitsForCallbackInProgress(realClock(), [] {});
}

TEST(FakeClockTest, CancelWaitsForACallbackInProgressOnAnotherThread) {
  test::FakeClock clock;
  expectCancelWaitsForCallbackInProgress(clock, [&clock] { clock.advance(seconds(1)); });
}

// Verifies a callback may cancel (or drop) its own timer without waiting for itself.
TEST(RealClockTest, CallbackCancellingItsOwnTimerReturns) {
  std::promise<void> done;
  TimerHandlePtr timer;
  std::mutex mu;
  std::unique_lock lock(mu);
  timer = realClock().runAfter(milliseconds(1), [&] {
    std::lock_guard guard(mu);  // waits until `timer` is assigned
    timer->cancel();
    done.set_value();
  });
  lock.unlock();
  EXPECT_EQ(done.get_future().wait_for(seconds(10)), std::future_status::ready);
}

TEST(FakeClockTest, CallbackDroppingItsOwnTimerReturns) {
  test::FakeClock clock;
  TimerHandlePtr timer;
  bool ran = false;
  timer = clock.runAfter(seconds(1), [&] {
    timer.reset();
    ran = true;
  });
  clock.advance(seconds(1));
  EXPECT_TRUE(ran);
  EXPECT_EQ(timer, nullptr);
}

}  // namespace
}  // namespace kf
