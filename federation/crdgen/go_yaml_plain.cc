#include "federation/crdgen/go_yaml_plain.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <regex>
#include <string>

#include "federation/crdgen/go_yaml_number.h"
#include "federation/crdgen/go_yaml_time.h"

namespace kf::goyaml {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Digits up to a 64-bit limit in one base: nullopt when a digit does not belong to the base,
// there is none, or the value passes `limit`.
std::optional<std::uint64_t> unsignedDigits(std::string_view digits, int base,
                                            std::uint64_t limit) {
  if (digits.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : digits) {
    int digit = base;
    if (isDigit(c)) {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    }
    if (digit >= base) return std::nullopt;
    if (value > (limit - static_cast<std::uint64_t>(digit)) / static_cast<std::uint64_t>(base)) {
      return std::nullopt;
    }
    value = value * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(digit);
  }
  return value;
}

// Go's strconv integer syntax: with `base` 0, 0x, 0o and 0b prefixes, a leading 0 for octal and
// decimal otherwise. ParseInt (`signed_result`) takes a sign and 63 bits, ParseUint no sign and
// 64 bits.
std::optional<nlohmann::json> goInteger(std::string_view text, int base, bool signed_result) {
  bool negative = false;
  if (signed_result && !text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  if (base == 0) {
    base = 10;
    if (text[0] == '0') {
      const char prefix = text.size() >= 3 ? static_cast<char>(text[1] | 0x20) : '\0';
      base = prefix == 'x' ? 16 : prefix == 'b' ? 2 : 8;
      text.remove_prefix(prefix == 'x' || prefix == 'o' || prefix == 'b' ? 2 : 1);
      if (text.empty()) return nlohmann::json(0);  // "0"
    }
  }
  std::uint64_t limit = UINT64_MAX;
  if (signed_result) limit = negative ? (std::uint64_t{1} << 63) : (std::uint64_t{1} << 63) - 1;
  const auto magnitude = unsignedDigits(text, base, limit);
  if (!magnitude) return std::nullopt;
  if (!signed_result) return nlohmann::json(*magnitude);
  // -2^63 has no positive int64 counterpart: negate in unsigned arithmetic.
  return nlohmann::json(negative ? static_cast<std::int64_t>(~*magnitude + 1)
                                 : static_cast<std::int64_t>(*magnitude));
}

// go-yaml tries ParseInt, then ParseUint.
std::optional<nlohmann::json> goInteger(std::string_view text, int base) {
  if (auto value = goInteger(text, base, true)) return value;
  return goInteger(text, base, false);
}

// go-yaml's own binary check after Go's: the digits after "0b" in base 2 (a sign may follow the
// prefix), or "-0b" and the digits as a negative number.
std::optional<nlohmann::json> prefixedBinary(std::string_view text) {
  if (text.rfind("0b", 0) == 0) return goInteger(text.substr(2), 2);
  if (text.rfind("-0b", 0) == 0) return goInteger("-" + std::string{text.substr(3)}, 2, true);
  return std::nullopt;
}

// A decimal float that does not overflow a double (an underflow to zero still counts).
std::optional<nlohmann::json> finiteFloat(std::string_view text) {
  std::string digits;
  for (char c : text) {
    if (c != '_') digits += c;
  }
  const double value = std::strtod(digits.c_str(), nullptr);
  if (std::isinf(value)) return std::nullopt;
  return nlohmann::json(value);
}

bool isBase60Float(const std::string& text) {
  static const std::regex kBase60("^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?$");
  return text.find(':') != std::string::npos && std::regex_match(text, kBase60);
}

enum class Kind { kString, kNull, kBool, kNumber, kStringLike };

// What go-yaml makes of unquoted text. kStringLike: a timestamp, base-60 number or .inf/.nan,
// which Kubernetes keeps as the text but go-yaml's writer quotes.
struct Resolved {
  Kind kind = Kind::kString;
  nlohmann::json value;
};

// Words go-yaml reads as null, booleans or special floats, whatever comes after them.
std::optional<Resolved> reservedWord(std::string_view text) {
  static constexpr std::array<std::string_view, 5> kNull = {"", "~", "null", "Null", "NULL"};
  static constexpr std::array<std::string_view, 12> kTrue = {
      "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"};
  static constexpr std::array<std::string_view, 12> kFalse = {
      "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"};
  static constexpr std::array<std::string_view, 12> kSpecialFloats = {
      ".nan",  ".NaN",  ".NAN",  ".inf",  ".Inf",  ".INF",
      "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"};
  auto in = [text](const auto& words) {
    return std::find(words.begin(), words.end(), text) != words.end();
  };
  if (in(kNull)) return Resolved{Kind::kNull, nullptr};
  if (in(kTrue)) return Resolved{Kind::kBool, true};
  if (in(kFalse)) return Resolved{Kind::kBool, false};
  if (in(kSpecialFloats)) return Resolved{Kind::kStringLike, std::string{text}};
  return std::nullopt;
}

// Text starting with a sign or digit: an integer, a YAML-style float or a binary number, tried
// in go-yaml's order (after timestamps; underscores are dropped first).
std::optional<nlohmann::json> number(std::string_view text) {
  std::string plain;
  for (char c : text) {
    if (c != '_') plain += c;
  }
  if (auto value = goInteger(plain, 0)) return value;
  static const std::regex kYamlFloat("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$");
  if (std::regex_match(plain, kYamlFloat)) {
    if (auto value = finiteFloat(plain)) return value;
  }
  return prefixedBinary(plain);
}

// Text starting with '.': Go's decimal float syntax (underscores only between digits).
std::optional<nlohmann::json> dotFloat(const std::string& text) {
  static const std::regex kDotFloat("^\\.[0-9](_?[0-9])*([eE][-+]?[0-9](_?[0-9])*)?$");
  if (!std::regex_match(text, kDotFloat)) return std::nullopt;
  return finiteFloat(text);
}

Resolved resolve(std::string_view text) {
  // go-yaml looks only at text whose first character could start something else.
  const char first = text.empty() ? '\0' : text[0];
  const bool sign_or_digit = first == '+' || first == '-' || isDigit(first);
  const bool maybe_word =
      text.empty() || std::string_view("yYnNtTfFoO~.").find(first) != std::string_view::npos;
  if (!sign_or_digit && !maybe_word) return {};
  if (auto word = reservedWord(text)) return *word;
  if (first == '.') {
    if (auto value = dotFloat(std::string{text})) return {Kind::kNumber, *value};
    return {};
  }
  if (!sign_or_digit) return {};
  if (isTimestamp(text)) return {Kind::kStringLike, std::string{text}};
  if (auto value = number(text)) return {Kind::kNumber, *value};
  if (isBase60Float(std::string{text})) return {Kind::kStringLike, std::string{text}};
  return {};
}

// Go's float32(f): to the nearest float32, infinite from half a unit past the largest one on (a
// C++ conversion of such a double would be undefined).
float toFloat32(double value) {
  constexpr double kOverflow = 3.4028235677973366e38;  // 2^128 - 2^103
  if (std::fabs(value) >= kOverflow) {
    return value < 0 ? -std::numeric_limits<float>::infinity()
                     : std::numeric_limits<float>::infinity();
  }
  return static_cast<float>(value);
}

}  // namespace

bool plainReadsAsString(std::string_view text) { return resolve(text).kind == Kind::kString; }

nlohmann::json readPlain(std::string_view text) {
  Resolved resolved = resolve(text);
  if (resolved.kind == Kind::kString) return std::string{text};
  return resolved.value;
}

std::string readPlainKey(std::string_view text) {
  const Resolved resolved = resolve(text);
  if (resolved.kind == Kind::kBool) return resolved.value.get<bool>() ? "true" : "false";
  if (resolved.kind != Kind::kNumber) return std::string{text};
  if (resolved.value.is_number_float()) {
    // A float64 key too large for a float32 prints as Go's "+Inf", which sigs.k8s.io/yaml names
    // as YAML does.
    const std::string text32 = formatFloat32(toFloat32(resolved.value.get<double>()));
    return text32 == "+Inf" ? ".inf" : text32 == "-Inf" ? "-.inf" : text32;
  }
  return resolved.value.dump();
}

}  // namespace kf::goyaml
