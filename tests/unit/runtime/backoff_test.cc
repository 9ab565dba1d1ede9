#include "federation/runtime/backoff.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

using std::chrono::seconds;

// Verifies the waits start at initial, double, and stay at max.
TEST(BackoffTest, DoublesFromInitialUpToMax) {
  Backoff backoff(seconds(5), seconds(60));
  std::vector<Duration> waits;
  for (int i = 0; i < 7; ++i) waits.push_back(backoff.next());
  EXPECT_EQ(waits, (std::vector<Duration>{seconds(5), seconds(10), seconds(20), seconds(40),
                                          seconds(60), seconds(60), seconds(60)}));
}

// Verifies reset() starts over at initial.
TEST(BackoffTest, ResetStartsOverAtInitial) {
  Backoff backoff(seconds(1), seconds(30));
  backoff.next();
  backoff.next();
  backoff.reset();
  EXPECT_EQ(backoff.next(), seconds(1));
}

// Verifies a max below initial waits initial every time (never less than asked first).
TEST(BackoffTest, MaxBelowInitialWaitsInitial) {
  Backoff backoff(seconds(10), seconds(1));
  EXPECT_EQ(backoff.next(), seconds(10));
  EXPECT_EQ(backoff.next(), seconds(10));
}

// Verifies doubling never overflows however long a failure lasts.
TEST(BackoffTest, ManyFailuresStayAtMax) {
  Backoff backoff(std::chrono::nanoseconds(1), std::chrono::hours(1000000));
  Duration last{};
  for (int i = 0; i < 200; ++i) last = backoff.next();
  EXPECT_EQ(last, std::chrono::hours(1000000));
}

}  // namespace
}  // namespace kf
