#include "federation/workqueue/rate_limiting_queue.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

TEST(RateLimitingQueueTest, AddRateLimitedWaitsForBackoff) {
  test::FakeClock clock;
  RateLimitingQueue queue(
      clock, std::make_unique<ItemExponentialFailureRateLimiter>(seconds(1), minutes(1)));

  queue.addRateLimited("a");
  EXPECT_EQ(queue.len(), 0U);
  clock.advance(seconds(1));
  ASSERT_EQ(queue.len(), 1U);
  ASSERT_EQ(queue.get(), "a");
  queue.done("a");

  queue.addRateLimited("a");
  clock.advance(milliseconds(1999));
  EXPECT_EQ(queue.len(), 0U);
  clock.advance(milliseconds(1));
  EXPECT_EQ(queue.len(), 1U);
  EXPECT_EQ(queue.numRequeues("a"), 2);
}

TEST(RateLimitingQueueTest, ForgetResetsBackoff) {
  test::FakeClock clock;
  RateLimitingQueue queue(
      clock, std::make_unique<ItemExponentialFailureRateLimiter>(seconds(1), minutes(1)));
  queue.addRateLimited("a");
  queue.addRateLimited("a");
  queue.forget("a");
  EXPECT_EQ(queue.numRequeues("a"), 0);

  clock.advance(seconds(1));  // the waiting key kept its 1s deadline
  ASSERT_EQ(queue.len(), 1U);
  ASSERT_EQ(queue.get(), "a");
  queue.done("a");
  queue.addRateLimited("a");
  clock.advance(seconds(1));
  EXPECT_EQ(queue.len(), 1U);
}

TEST(RateLimitingQueueTest, DefaultLimiterStartsAtFiveMilliseconds) {
  test::FakeClock clock;
  RateLimitingQueue queue(clock);
  queue.addRateLimited("a");
  clock.advance(milliseconds(4));
  EXPECT_EQ(queue.len(), 0U);
  clock.advance(milliseconds(1));
  EXPECT_EQ(queue.len(), 1U);
}

}  // namespace
}  // namespace kf
