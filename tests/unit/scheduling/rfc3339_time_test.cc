#include "federation/scheduling/rfc3339_time.h"

#include <gtest/gtest.h>

namespace kf::scheduling {
namespace {

using namespace std::chrono_literals;
using std::chrono::sys_days;
using std::chrono::year;

std::int64_t epochSeconds(std::string_view text) {
  auto parsed = parseRfc3339Time(text);
  EXPECT_TRUE(parsed) << text;
  return parsed ? std::chrono::floor<std::chrono::seconds>(*parsed).time_since_epoch().count() : -1;
}

// Verifies UTC times as the API server writes them.
TEST(Rfc3339TimeTest, ReadsUtcTimes) {
  EXPECT_EQ(epochSeconds("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(epochSeconds("2024-05-01T10:00:00Z"), 1714557600);
  EXPECT_EQ(epochSeconds("2000-02-29T23:59:59Z"), 951868799);
}

// Verifies numeric offsets: the same instant written in two zones.
TEST(Rfc3339TimeTest, AppliesOffsets) {
  EXPECT_EQ(epochSeconds("2024-05-01T12:30:00+02:30"), 1714557600);
  EXPECT_EQ(epochSeconds("2024-05-01T05:00:00-05:00"), 1714557600);
  EXPECT_EQ(epochSeconds("2024-05-01T10:00:00+00:00"), 1714557600);
}

// Verifies fractional seconds, kept to microseconds.
TEST(Rfc3339TimeTest, ReadsFractionalSeconds) {
  auto parsed = parseRfc3339Time("1970-01-01T00:00:01.5Z");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->time_since_epoch(), 1500000us);
  parsed = parseRfc3339Time("1970-01-01T00:00:00.123456789Z");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->time_since_epoch(), 123456us);
}

// Verifies that years outside system_clock's nanosecond range (Go's zero time) are read.
TEST(Rfc3339TimeTest, ReadsFarYears) {
  auto zero = parseRfc3339Time("0001-01-01T00:00:00Z");
  ASSERT_TRUE(zero);
  EXPECT_EQ(*zero, TimeMicros(sys_days(year(1) / 1 / 1)));
  EXPECT_TRUE(parseRfc3339Time("9999-12-31T23:59:59Z"));
}

// Verifies that text that is not an RFC 3339 date-time, or names no real instant, is refused.
TEST(Rfc3339TimeTest, RefusesMalformedTimes) {
  for (const char* text :
       {"", "2024-05-01", "2024-05-01T10:00:00", "2024-05-01 10:00:00Z", "2024-05-01t10:00:00Z",
        "2024-5-01T10:00:00Z", "2024-05-01T10:00Z", "2024-05-01T10:00:00.Z",
        "2024-05-01T10:00:00+0200", "2024-05-01T10:00:00+24:00", "2024-02-30T10:00:00Z",
        "2023-02-29T10:00:00Z", "2024-13-01T10:00:00Z", "2024-05-01T24:00:00Z",
        "2024-05-01T10:60:00Z", "2024-05-01T10:00:60Z", "2024-05-01T10:00:00Zjunk",
        "x024-05-01T10:00:00Z"}) {
    EXPECT_FALSE(parseRfc3339Time(text)) << text;
  }
}

}  // namespace
}  // namespace kf::scheduling
