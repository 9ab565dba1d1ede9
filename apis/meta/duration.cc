#include "apis/meta/duration.h"

#include <array>
#include <cstdint>

namespace kf::meta {
namespace {

constexpr std::uint64_t kMaxMagnitude = std::uint64_t{1} << 63;  // |math.MinInt64|

struct Unit {
  std::string_view name;
  std::uint64_t nanos;
};

// Longest names first is not needed: a unit is the whole run of non-digit, non-dot bytes.
constexpr std::array<Unit, 8> kUnits{{
    {"ns", 1},
    {"us", 1000},
    {"\xc2\xb5s", 1000},  // U+00B5 micro sign
    {"\xce\xbcs", 1000},  // U+03BC Greek small letter mu
    {"ms", 1000000},
    {"s", 1000000000},
    {"m", 60ULL * 1000000000},
    {"h", 3600ULL * 1000000000},
}};

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Digits at the front of `s` as an integer; false on overflow past 2^63.
bool leadingInt(std::string_view& s, std::uint64_t& x) {
  std::size_t i = 0;
  x = 0;
  for (; i < s.size() && isDigit(s[i]); ++i) {
    if (x > (kMaxMagnitude - 1) / 10) return false;
    x = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (x > kMaxMagnitude) return false;
  }
  s.remove_prefix(i);
  return true;
}

// Fraction digits: value and power-of-ten scale; digits past the int64 range are dropped.
void leadingFraction(std::string_view& s, std::uint64_t& x, double& scale) {
  std::size_t i = 0;
  x = 0;
  scale = 1;
  bool overflow = false;
  for (; i < s.size() && isDigit(s[i]); ++i) {
    if (overflow) continue;
    if (x > (kMaxMagnitude - 1) / 10) {
      overflow = true;
      continue;
    }
    const std::uint64_t y = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (y > kMaxMagnitude) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  s.remove_prefix(i);
}

std::optional<std::uint64_t> unitNanos(std::string_view name) {
  for (const auto& unit : kUnits) {
    if (unit.name == name) return unit.nanos;
  }
  return std::nullopt;
}

// One "<number><unit>" component, removed from the front of `s`.
std::optional<std::uint64_t> parseComponent(std::string_view& s) {
  if (s.empty() || !(s[0] == '.' || isDigit(s[0]))) return std::nullopt;
  const std::size_t before = s.size();
  std::uint64_t whole = 0;
  if (!leadingInt(s, whole)) return std::nullopt;
  const bool pre = s.size() != before;
  std::uint64_t frac = 0;
  double scale = 1;
  bool post = false;
  if (!s.empty() && s[0] == '.') {
    s.remove_prefix(1);
    const std::size_t at = s.size();
    leadingFraction(s, frac, scale);
    post = s.size() != at;
  }
  if (!pre && !post) return std::nullopt;
  std::size_t unit_len = 0;
  while (unit_len < s.size() && s[unit_len] != '.' && !isDigit(s[unit_len])) ++unit_len;
  if (unit_len == 0) return std::nullopt;  // "missing unit in duration"
  const auto unit = unitNanos(s.substr(0, unit_len));
  if (!unit) return std::nullopt;
  s.remove_prefix(unit_len);
  if (whole > kMaxMagnitude / *unit) return std::nullopt;
  std::uint64_t v = whole * *unit;
  if (frac > 0) {
    v += static_cast<std::uint64_t>(static_cast<double>(frac) *
                                    (static_cast<double>(*unit) / scale));
    if (v > kMaxMagnitude) return std::nullopt;
  }
  return v;
}

// fmtFrac: ".5" for v=5, prec=1; trailing zeros dropped, nothing when all are zero.
std::string fractionText(std::uint64_t& v, int prec) {
  std::string digits;
  bool print = false;
  for (int i = 0; i < prec; ++i) {
    const auto digit = static_cast<char>('0' + v % 10);
    print = print || digit != '0';
    if (print) digits.insert(digits.begin(), digit);
    v /= 10;
  }
  return print ? "." + digits : "";
}

}  // namespace

std::optional<std::chrono::nanoseconds> parseGoDuration(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return std::nullopt;
  std::uint64_t total = 0;
  while (!s.empty()) {
    const auto component = parseComponent(s);
    if (!component) return std::nullopt;
    total += *component;
    if (total > kMaxMagnitude) return std::nullopt;
  }
  if (negative) {
    return std::chrono::nanoseconds(static_cast<std::int64_t>(0 - total));
  }
  if (total > kMaxMagnitude - 1) return std::nullopt;
  return std::chrono::nanoseconds(static_cast<std::int64_t>(total));
}

std::string formatGoDuration(std::chrono::nanoseconds value) {
  const std::int64_t d = value.count();
  const bool negative = d < 0;
  // Two's complement negation in unsigned space keeps math.MinInt64 exact.
  std::uint64_t u = negative ? 0 - static_cast<std::uint64_t>(d) : static_cast<std::uint64_t>(d);
  std::string out;
  if (u < 1000000000) {
    if (u == 0) return "0s";
    int prec = 0;
    std::string unit;
    if (u < 1000) {
      unit = "ns";
    } else if (u < 1000000) {
      prec = 3;
      unit = "\xc2\xb5s";
    } else {
      prec = 6;
      unit = "ms";
    }
    const std::string frac = fractionText(u, prec);
    out = std::to_string(u) + frac + unit;
  } else {
    const std::string frac = fractionText(u, 9);
    out = std::to_string(u % 60) + frac + "s";
    u /= 60;
    if (u > 0) {
      out = std::to_string(u % 60) + "m" + out;
      u /= 60;
      if (u > 0) out = std::to_string(u) + "h" + out;
    }
  }
  return negative ? "-" + out : out;
}

std::optional<Duration> Duration::parse(std::string_view text) {
  const auto value = parseGoDuration(text);
  if (!value) return std::nullopt;
  Duration duration(*value);
  duration.text_ = std::string(text);
  return duration;
}

std::string Duration::text() const {
  if (!text_.empty()) return text_;
  return formatGoDuration(value_);
}

}  // namespace kf::meta
