#include "federation/scheduling/rfc3339_time.h"

namespace kf::scheduling {

namespace {

// Reads exactly `digits` decimal digits at `pos`, advancing it.
std::optional<int> readDigits(std::string_view text, std::size_t& pos, std::size_t digits) {
  if (pos + digits > text.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  pos += digits;
  return value;
}

bool readChar(std::string_view text, std::size_t& pos, char expected) {
  if (pos >= text.size() || text[pos] != expected) return false;
  ++pos;
  return true;
}

// ".123456": any number of digits (Go accepts up to nanoseconds); kept to microseconds.
std::optional<std::chrono::microseconds> readFraction(std::string_view text, std::size_t& pos) {
  if (!readChar(text, pos, '.')) return std::chrono::microseconds(0);
  constexpr std::size_t kKeptDigits = 6;
  std::int64_t micros = 0;
  std::size_t digits = 0;
  for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, ++digits) {
    if (digits < kKeptDigits) micros = micros * 10 + (text[pos] - '0');
  }
  if (digits == 0) return std::nullopt;
  for (std::size_t i = digits; i < kKeptDigits; ++i) micros *= 10;
  return std::chrono::microseconds(micros);
}

// "Z", "+hh:mm" or "-hh:mm": how far the local time is ahead of UTC.
std::optional<std::chrono::minutes> readOffset(std::string_view text, std::size_t& pos) {
  if (readChar(text, pos, 'Z')) return std::chrono::minutes(0);
  if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) return std::nullopt;
  const int sign = text[pos++] == '-' ? -1 : 1;
  const auto hours = readDigits(text, pos, 2);
  if (!hours || !readChar(text, pos, ':')) return std::nullopt;
  const auto minutes = readDigits(text, pos, 2);
  if (!minutes || *hours > 23 || *minutes > 59) return std::nullopt;
  return std::chrono::minutes(sign * (*hours * 60 + *minutes));
}

}  // namespace

std::optional<TimeMicros> parseRfc3339Time(std::string_view text) {
  using namespace std::chrono;
  std::size_t pos = 0;
  const auto y = readDigits(text, pos, 4);
  if (!y || !readChar(text, pos, '-')) return std::nullopt;
  const auto mo = readDigits(text, pos, 2);
  if (!mo || !readChar(text, pos, '-')) return std::nullopt;
  const auto d = readDigits(text, pos, 2);
  if (!d || !readChar(text, pos, 'T')) return std::nullopt;
  const auto h = readDigits(text, pos, 2);
  if (!h || !readChar(text, pos, ':')) return std::nullopt;
  const auto mi = readDigits(text, pos, 2);
  if (!mi || !readChar(text, pos, ':')) return std::nullopt;
  const auto s = readDigits(text, pos, 2);
  if (!s) return std::nullopt;
  const auto fraction = readFraction(text, pos);
  if (!fraction) return std::nullopt;
  const auto offset = readOffset(text, pos);
  if (!offset || pos != text.size()) return std::nullopt;

  const year_month_day date{year(*y), month(static_cast<unsigned>(*mo)),
                            day(static_cast<unsigned>(*d))};
  if (!date.ok() || *h > 23 || *mi > 59 || *s > 59) return std::nullopt;
  const TimeMicros local = sys_days(date) + hours(*h) + minutes(*mi) + seconds(*s) + *fraction;
  return local - *offset;
}

}  // namespace kf::scheduling
