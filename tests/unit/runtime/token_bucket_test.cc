#include "federation/runtime/token_bucket.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(TokenBucketTest, AcceptsBurstThenRejects) {
  test::FakeClock clock;
  TokenBucket bucket(/*qps=*/10, /*burst=*/3, clock);
  EXPECT_TRUE(bucket.tryAccept());
  EXPECT_TRUE(bucket.tryAccept());
  EXPECT_TRUE(bucket.tryAccept());
  EXPECT_FALSE(bucket.tryAccept());
}

TEST(TokenBucketTest, RefillsOneTokenPerInterval) {
  test::FakeClock clock;
  TokenBucket bucket(/*qps=*/10, /*burst=*/1, clock);
  ASSERT_TRUE(bucket.tryAccept());
  clock.advance(milliseconds(99));
  EXPECT_FALSE(bucket.tryAccept());
  clock.advance(milliseconds(1));
  EXPECT_TRUE(bucket.tryAccept());
  EXPECT_FALSE(bucket.tryAccept());
}

TEST(TokenBucketTest, RefillStopsAtBurst) {
  test::FakeClock clock;
  TokenBucket bucket(/*qps=*/10, /*burst=*/2, clock);
  ASSERT_TRUE(bucket.tryAccept());
  ASSERT_TRUE(bucket.tryAccept());
  clock.advance(seconds(60));
  EXPECT_TRUE(bucket.tryAccept());
  EXPECT_TRUE(bucket.tryAccept());
  EXPECT_FALSE(bucket.tryAccept());
}

TEST(TokenBucketTest, ReserveQueuesSuccessiveWaits) {
  test::FakeClock clock;
  TokenBucket bucket(/*qps=*/10, /*burst=*/1, clock);
  EXPECT_EQ(bucket.reserve(), Duration::zero());
  EXPECT_EQ(bucket.reserve(), milliseconds(100));
  EXPECT_EQ(bucket.reserve(), milliseconds(200));
  // The debt is paid back by time, and tryAccept() does not jump the queue meanwhile.
  clock.advance(milliseconds(150));
  EXPECT_FALSE(bucket.tryAccept());
  EXPECT_EQ(bucket.reserve(), milliseconds(150));
}

TEST(TokenBucketTest, FailedTryAcceptTakesNoToken) {
  test::FakeClock clock;
  TokenBucket bucket(/*qps=*/1, /*burst=*/1, clock);
  ASSERT_TRUE(bucket.tryAccept());
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(bucket.tryAccept());
  clock.advance(seconds(1));
  EXPECT_TRUE(bucket.tryAccept());
}

TEST(TokenBucketTest, NonPositiveQpsIsUnlimited) {
  test::FakeClock clock;
  TokenBucket zero(/*qps=*/0, /*burst=*/1, clock);
  TokenBucket negative(/*qps=*/-1, /*burst=*/1, clock);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(zero.tryAccept());
    ASSERT_EQ(negative.reserve(), Duration::zero());
  }
  zero.accept();  // returns at once: no timer is needed
  EXPECT_EQ(clock.pendingTimers(), 0U);
}

TEST(TokenBucketTest, AcceptReturnsImmediatelyWhileTokensRemain) {
  test::FakeClock clock;
  TokenBucket bucket(/*qps=*/1, /*burst=*/2, clock);
  bucket.accept();
  bucket.accept();
  EXPECT_EQ(clock.pendingTimers(), 0U);
  EXPECT_FALSE(bucket.tryAccept());
}

TEST(TokenBucketTest, AcceptBlocksUntilFakeClockReachesSlot) {
  test::FakeClock clock;
  TokenBucket bucket(/*qps=*/1, /*burst=*/1, clock);
  ASSERT_TRUE(bucket.tryAccept());

  auto accepted = std::async(std::launch::async, [&] { bucket.accept(); });
  // accept() registers its wake-up timer before blocking; wait for that, bounded.
  const auto deadline = std::chrono::steady_clock::now() + seconds(10);
  while (clock.pendingTimers() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  // EXPECT rather than ASSERT: the clock must still be advanced, or the future's destructor
  // would wait forever for the blocked accept().
  EXPECT_EQ(clock.pendingTimers(), 1U);
  EXPECT_EQ(accepted.wait_for(Duration::zero()), std::future_status::timeout);

  clock.advance(milliseconds(999));
  EXPECT_EQ(accepted.wait_for(Duration::zero()), std::future_status::timeout);
  clock.advance(milliseconds(1));
  EXPECT_EQ(accepted.wait_for(seconds(10)), std::future_status::ready);
}

TEST(TokenBucketTest, ClampsBurstToAtLeastOne) {
  test::FakeClock clock;
  TokenBucket bucket(/*qps=*/1, /*burst=*/0, clock);
  EXPECT_EQ(bucket.burst(), 1);
  EXPECT_TRUE(bucket.tryAccept());
  EXPECT_FALSE(bucket.tryAccept());
}

}  // namespace
}  // namespace kf
