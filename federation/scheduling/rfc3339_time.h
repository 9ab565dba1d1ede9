#pragma once
// Reading metav1.Time values (pod conditions' lastTransitionTime) as Go's time.Parse with the
// RFC 3339 layout does: "2006-01-02T15:04:05Z", optional fractional seconds, and "Z" or a
// "+hh:mm" / "-hh:mm" offset.

#include <chrono>
#include <optional>
#include <string_view>

namespace kf::scheduling {

// Microseconds since the Unix epoch: wide enough for every year RFC 3339 can write (Go's zero
// time, 0001-01-01, included), where the nanoseconds of system_clock end in 1677 and 2262.
using TimeMicros = std::chrono::sys_time<std::chrono::microseconds>;

// The instant `text` names, or nullopt when it is not an RFC 3339 date-time (or names a day or
// time of day that does not exist, such as February 30 or 24:00). Digits beyond microseconds
// are dropped.
std::optional<TimeMicros> parseRfc3339Time(std::string_view text);

}  // namespace kf::scheduling
