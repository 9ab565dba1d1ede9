#include "federation/controller/key_backoff.h"

#include <gtest/gtest.h>

#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::seconds;

class KeyBackoffTest : public ::testing::Test {
 protected:
  test::FakeClock clock_;
  KeyBackoff backoff_{seconds(5), seconds(60), clock_};
};

// Verifies the delays of consecutive failures: 5 s doubling to the 60 s cap.
TEST_F(KeyBackoffTest, DoublesFromInitialUpToMax) {
  const Duration expected[] = {seconds(5),  seconds(10), seconds(20), seconds(40),
                               seconds(60), seconds(60), seconds(60)};
  for (const Duration delay : expected) {
    EXPECT_EQ(backoff_.next("a"), delay);
    clock_.advance(delay);
  }
}

// Verifies that keys back off independently.
TEST_F(KeyBackoffTest, KeysAreIndependent) {
  EXPECT_EQ(backoff_.next("a"), seconds(5));
  EXPECT_EQ(backoff_.next("a"), seconds(10));
  EXPECT_EQ(backoff_.next("b"), seconds(5));
}

// Verifies that reset() starts the key over.
TEST_F(KeyBackoffTest, ResetStartsOver) {
  backoff_.next("a");
  backoff_.next("a");
  backoff_.reset("a");
  EXPECT_EQ(backoff_.next("a"), seconds(5));
  EXPECT_EQ(backoff_.trackedKeys(), 1U);
}

// Verifies that a key that has not failed for more than 2 * max starts over, and that such keys
// are forgotten by the periodic sweep.
TEST_F(KeyBackoffTest, QuietKeysExpireAndAreForgotten) {
  backoff_.next("a");
  EXPECT_EQ(backoff_.next("a"), seconds(10));
  clock_.advance(seconds(120));
  EXPECT_EQ(backoff_.next("a"), seconds(20)) << "exactly 2 * max is not yet expired";
  clock_.advance(seconds(121));
  EXPECT_EQ(backoff_.next("a"), seconds(5));

  backoff_.next("quiet");
  clock_.advance(seconds(121));
  backoff_.next("a");
  EXPECT_EQ(backoff_.trackedKeys(), 1U);
}

}  // namespace
}  // namespace kf
