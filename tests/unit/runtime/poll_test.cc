#include <gtest/gtest.h>

#include <future>

#include "federation/runtime/interruptible_sleep.h"
#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Verifies client-go's PollImmediate: asked at once, with no wait when already done.
TEST(PollImmediateTest, AsksAtOnceAndReturnsWhenDone) {
  test::FakeClock clock;
  int asked = 0;
  EXPECT_TRUE(pollImmediate(clock, seconds(1), seconds(10), [&] { return ++asked == 1; }));
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(clock.pendingTimers(), 0u);
}

// Verifies that later asks come one interval apart on the clock, until done.
TEST(PollImmediateTest, AsksAgainEveryIntervalOnTheClock) {
  test::FakeClock clock;
  const SteadyTime start = clock.now();
  std::vector<Duration> asked_at;
  auto done = std::async(std::launch::async, [&] {
    return pollImmediate(clock, milliseconds(200), seconds(10), [&] {
      asked_at.push_back(clock.now() - start);
      return asked_at.size() == 3;
    });
  });
  ASSERT_TRUE(clock.advanceWhenPending(milliseconds(200)));
  ASSERT_TRUE(clock.advanceWhenPending(milliseconds(200)));
  EXPECT_TRUE(done.get());
  EXPECT_EQ(asked_at,
            (std::vector<Duration>{Duration::zero(), milliseconds(200), milliseconds(400)}));
}

// Verifies that the poll gives up once the timeout has passed on the clock, after a last ask.
TEST(PollImmediateTest, GivesUpAfterTheTimeout) {
  test::FakeClock clock;
  int asked = 0;
  auto done = std::async(std::launch::async, [&] {
    return pollImmediate(clock, seconds(1), seconds(3), [&] {
      ++asked;
      return false;
    });
  });
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(clock.advanceWhenPending(seconds(1)));
  EXPECT_FALSE(done.get());
  EXPECT_EQ(asked, 4);  // at 0, 1, 2 and 3 s
}

}  // namespace
}  // namespace kf
