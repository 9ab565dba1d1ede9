#include "federation/metrics/text_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kf::metrics {
namespace {

// The shortest round-trip digits of |value| and its decimal exponent (value = d.ddd × 10^exp).
struct Digits {
  std::string digits;
  int exponent = 0;
};

Digits shortestDigits(double magnitude) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  const std::size_t e = text.find('e');
  Digits out;
  for (const char c : text.substr(0, e)) {
    if (c != '.') out.digits += c;
  }
  const std::string_view exponent_text = text.substr(e + 1);
  const char* first = exponent_text.data() + (exponent_text.front() == '+' ? 1 : 0);
  std::from_chars(first, exponent_text.data() + exponent_text.size(), out.exponent);
  return out;
}

// Go's %e layout: d[.ddd]e±XX with at least two exponent digits.
std::string exponentForm(const Digits& d) {
  std::string out(1, d.digits[0]);
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  out += d.exponent < 0 ? "e-" : "e+";
  const int magnitude = std::abs(d.exponent);
  if (magnitude < 10) out += '0';
  out += std::to_string(magnitude);
  return out;
}

std::string plainForm(const Digits& d) {
  const int count = static_cast<int>(d.digits.size());
  const int point = d.exponent + 1;  // digits before the decimal point
  if (point <= 0) return "0." + std::string(static_cast<std::size_t>(-point), '0') + d.digits;
  if (point >= count) return d.digits + std::string(static_cast<std::size_t>(point - count), '0');
  return d.digits.substr(0, static_cast<std::size_t>(point)) + "." +
         d.digits.substr(static_cast<std::size_t>(point));
}

}  // namespace

std::string formatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == 0) return "0";  // also -0, as the Go client writes it
  const std::string sign = value < 0 ? "-" : "";
  const Digits digits = shortestDigits(std::fabs(value));
  // With the shortest precision Go's 'g' switches to exponent form at exponents < -4 or >= 6.
  const bool exponent = digits.exponent < -4 || digits.exponent >= 6;
  return sign + (exponent ? exponentForm(digits) : plainForm(digits));
}

std::string escapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string escapeHelp(std::string_view help) {
  std::string out;
  out.reserve(help.size());
  for (const char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace kf::metrics
