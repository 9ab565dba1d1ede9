#include "federation/crdgen/go_yaml_number.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kf::goyaml {
namespace {

// A finite double as the shortest decimal digits that read back as it, and where the decimal
// point goes: value = 0.DIGITS x 10^point.
struct ShortestDigits {
  bool negative = false;
  std::string digits;
  int point = 0;
};

template <typename Float>
ShortestDigits shortestDigits(Float value) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  ShortestDigits out;
  const std::size_t e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (c == '-') out.negative = true;
    if (c >= '0' && c <= '9') out.digits += c;
  }
  out.point = std::stoi(std::string{text.substr(e + 1)}) + 1;
  return out;
}

// Go's 'f' format of shortest digits: every digit, zeros up to the point, a fraction if any.
std::string fixedNotation(const ShortestDigits& d) {
  std::string out = d.negative ? "-" : "";
  const int count = static_cast<int>(d.digits.size());
  if (d.point <= 0) {
    out += "0";
  } else {
    for (int i = 0; i < d.point; ++i)
      out += i < count ? d.digits[static_cast<std::size_t>(i)] : '0';
  }
  if (count > d.point) {
    out += '.';
    for (int i = d.point; i < count; ++i)
      out += i < 0 ? '0' : d.digits[static_cast<std::size_t>(i)];
  }
  return out;
}

// Go's 'e' format of shortest digits: d.ddd, 'e', a sign and at least two exponent digits.
std::string exponentNotation(const ShortestDigits& d) {
  std::string out = d.negative ? "-" : "";
  out += d.digits[0];
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  const int exponent = d.point - 1;
  out += exponent < 0 ? "e-" : "e+";
  const std::string magnitude = std::to_string(std::abs(exponent));
  return out + (magnitude.size() < 2 ? "0" : "") + magnitude;
}

// strconv.FormatFloat(value, 'g', -1, 64): exponent notation below 1e-4 and from 1e6 on (the
// shortest form decides as if six digits were asked for).
std::string goFloat(const ShortestDigits& d) {
  const int exponent = d.point - 1;
  if (exponent < -4 || exponent >= 6) return exponentNotation(d);
  return fixedNotation(d);
}

// Whether decimal integer text fits go-yaml's integers: int64 when negative, uint64 otherwise.
bool fitsInteger(const std::string& text) {
  const bool negative = text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  const std::string limit = negative ? "9223372036854775808" : "18446744073709551615";
  return digits.size() < limit.size() || (digits.size() == limit.size() && digits <= limit);
}

std::string formatDouble(double value) {
  if (value == 0) return "0";  // encoding/json writes -0 as "-0", which go-yaml reads as 0
  const ShortestDigits d = shortestDigits(value);
  const double magnitude = std::fabs(value);
  // encoding/json writes exponent notation there; go-yaml reads it as a float.
  const bool json_exponent = magnitude < 1e-6 || magnitude >= 1e21;
  const bool fraction = static_cast<int>(d.digits.size()) > d.point;
  if (!json_exponent && !fraction) {
    std::string integer = fixedNotation(d);
    if (fitsInteger(integer)) return integer;
  }
  return goFloat(d);
}

}  // namespace

std::string formatFloat32(float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-Inf" : "+Inf";
  if (value == 0) return std::signbit(value) ? "-0" : "0";
  return goFloat(shortestDigits(value));
}

std::string formatNumber(const nlohmann::ordered_json& number) {
  if (number.is_number_integer()) {
    if (number.is_number_unsigned()) {
      const auto value = number.get<std::uint64_t>();
      // Kubernetes' JSON decoding keeps integers in int64 and makes larger ones float64.
      if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return formatDouble(static_cast<double>(value));
      }
      return std::to_string(value);
    }
    return std::to_string(number.get<std::int64_t>());
  }
  return formatDouble(number.get<double>());
}

}  // namespace kf::goyaml
