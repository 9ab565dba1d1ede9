#include "federation/workqueue/rate_limiter.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(ItemExponentialFailureRateLimiterTest, DoublesUntilCap) {
  ItemExponentialFailureRateLimiter limiter(milliseconds(5), milliseconds(40));
  EXPECT_EQ(limiter.when("a"), milliseconds(5));
  EXPECT_EQ(limiter.when("a"), milliseconds(10));
  EXPECT_EQ(limiter.when("a"), milliseconds(20));
  EXPECT_EQ(limiter.when("a"), milliseconds(40));
  EXPECT_EQ(limiter.when("a"), milliseconds(40));
  EXPECT_EQ(limiter.numRequeues("a"), 5);
}

TEST(ItemExponentialFailureRateLimiterTest, ForgetResetsBackoff) {
  ItemExponentialFailureRateLimiter limiter(milliseconds(5), seconds(1));
  limiter.when("a");
  limiter.when("a");
  limiter.forget("a");
  EXPECT_EQ(limiter.numRequeues("a"), 0);
  EXPECT_EQ(limiter.when("a"), milliseconds(5));
}

TEST(ItemExponentialFailureRateLimiterTest, TracksKeysIndependently) {
  ItemExponentialFailureRateLimiter limiter(milliseconds(1), seconds(1));
  limiter.when("a");
  limiter.when("a");
  EXPECT_EQ(limiter.when("b"), milliseconds(1));
  EXPECT_EQ(limiter.numRequeues("a"), 2);
  EXPECT_EQ(limiter.numRequeues("b"), 1);
  EXPECT_EQ(limiter.numRequeues("never-seen"), 0);
}

TEST(ItemExponentialFailureRateLimiterTest, StaysAtCapInsteadOfOverflowing) {
  const Duration cap = hours(24 * 365 * 100);
  ItemExponentialFailureRateLimiter limiter(Duration(1), cap);
  Duration previous = Duration::zero();
  for (int i = 0; i < 200; ++i) {
    const Duration delay = limiter.when("a");
    ASSERT_GE(delay, previous) << "failure " << i;
    ASSERT_LE(delay, cap) << "failure " << i;
    previous = delay;
  }
  EXPECT_EQ(previous, cap);
}

TEST(BucketRateLimiterTest, AllowsBurstThenSpacesByQps) {
  test::FakeClock clock;
  BucketRateLimiter limiter(clock, /*qps=*/10, /*burst=*/2);
  EXPECT_EQ(limiter.when("a"), Duration::zero());
  EXPECT_EQ(limiter.when("b"), Duration::zero());
  EXPECT_EQ(limiter.when("c"), milliseconds(100));
  EXPECT_EQ(limiter.when("a"), milliseconds(200));
  EXPECT_EQ(limiter.numRequeues("a"), 0);

  clock.advance(seconds(10));
  EXPECT_EQ(limiter.when("d"), Duration::zero());
}

TEST(BucketRateLimiterTest, DefaultsToTenQpsWithBurstOfHundred) {
  test::FakeClock clock;
  BucketRateLimiter limiter(clock);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(limiter.when(std::to_string(i)), Duration::zero());
  EXPECT_EQ(limiter.when("overflow"), milliseconds(100));
}

TEST(MaxOfRateLimiterTest, ReturnsLongestDelayAndForgetsEverywhere) {
  test::FakeClock clock;
  std::vector<std::unique_ptr<RateLimiter>> limiters;
  limiters.push_back(
      std::make_unique<ItemExponentialFailureRateLimiter>(milliseconds(1), hours(1)));
  limiters.push_back(std::make_unique<BucketRateLimiter>(clock, /*qps=*/1, /*burst=*/1));
  MaxOfRateLimiter limiter(std::move(limiters));

  EXPECT_EQ(limiter.when("a"), milliseconds(1));  // exponential dominates a full bucket
  EXPECT_EQ(limiter.when("a"), seconds(1));       // the empty bucket dominates
  EXPECT_EQ(limiter.numRequeues("a"), 2);

  limiter.forget("a");
  EXPECT_EQ(limiter.numRequeues("a"), 0);
}

TEST(DefaultControllerRateLimiterTest, CombinesPerKeyBackoffWithOverallBucket) {
  test::FakeClock clock;
  std::unique_ptr<RateLimiter> limiter = defaultControllerRateLimiter(clock);
  EXPECT_EQ(limiter->when("a"), milliseconds(5));
  EXPECT_EQ(limiter->when("a"), milliseconds(10));
  EXPECT_EQ(limiter->when("a"), milliseconds(20));
  for (int i = 0; i < 97; ++i) ASSERT_EQ(limiter->when(std::to_string(i)), milliseconds(5));
  // 100 tokens spent: the 101st retry waits for the bucket, not for its 5ms backoff.
  EXPECT_EQ(limiter->when("fresh"), milliseconds(100));
}

TEST(DefaultControllerRateLimiterTest, CapsBackoffAtThousandSeconds) {
  test::FakeClock clock;
  std::unique_ptr<RateLimiter> limiter = defaultControllerRateLimiter(clock);
  Duration delay{};
  for (int i = 0; i < 40; ++i) {
    delay = limiter->when("a");
    clock.advance(delay);  // keep the bucket out of the picture
  }
  EXPECT_EQ(delay, seconds(1000));
}

}  // namespace
}  // namespace kf
