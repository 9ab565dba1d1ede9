#include "federation/crdgen/go_yaml_plain.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <regex>
#include <string>

namespace kf::goyaml {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Words go-yaml reads as null, booleans or special floats, whatever comes after them.
bool isReservedWord(std::string_view text) {
  static constexpr std::array<std::string_view, 39> kWords = {
      "",     "~",     "null",  "Null",  "NULL",  "y",     "Y",     "yes",   "Yes",  "YES",
      "true", "True",  "TRUE",  "on",    "On",    "ON",    "n",     "N",     "no",   "No",
      "NO",   "false", "False", "FALSE", "off",   "Off",   "OFF",   ".nan",  ".NaN", ".NAN",
      ".inf", ".Inf",  ".INF",  "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"};
  for (std::string_view word : kWords) {
    if (word == text) return true;
  }
  return false;
}

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
// 64 bits; go-yaml tries both.
bool parsesAsGoInteger(std::string_view text, int base, bool signed_result) {
  bool negative = false;
  if (signed_result && !text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return false;
  if (base == 0) {
    base = 10;
    if (text[0] == '0') {
      const char prefix = text.size() >= 3 ? static_cast<char>(text[1] | 0x20) : '\0';
      base = prefix == 'x' ? 16 : prefix == 'b' ? 2 : 8;
      text.remove_prefix(prefix == 'x' || prefix == 'o' || prefix == 'b' ? 2 : 1);
      if (text.empty()) return true;  // "0"
    }
  }
  std::uint64_t limit = UINT64_MAX;
  if (signed_result) limit = negative ? (std::uint64_t{1} << 63) : (std::uint64_t{1} << 63) - 1;
  return unsignedDigits(text, base, limit).has_value();
}

bool parsesAsGoInteger(std::string_view text, int base) {
  return parsesAsGoInteger(text, base, true) || parsesAsGoInteger(text, base, false);
}

// go-yaml's own binary check after Go's: the digits after "0b" in base 2 (a sign may follow the
// prefix), or "-0b" and the digits as a negative number.
bool parsesAsPrefixedBinary(std::string_view text) {
  if (text.rfind("0b", 0) == 0) return parsesAsGoInteger(text.substr(2), 2);
  if (text.rfind("-0b", 0) == 0) {
    return parsesAsGoInteger("-" + std::string{text.substr(3)}, 2, true);
  }
  return false;
}

// A decimal float that does not overflow a double (an underflow to zero still counts).
bool parsesAsFiniteFloat(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (c != '_') digits += c;
  }
  return !std::isinf(std::strtod(digits.c_str(), nullptr));
}

// Up to two digits as Go's time.Parse reads "1", "2", "15", "4" and "5".
std::optional<int> oneOrTwoDigits(std::string_view text, std::size_t& pos) {
  if (pos >= text.size() || !isDigit(text[pos])) return std::nullopt;
  int value = text[pos++] - '0';
  if (pos < text.size() && isDigit(text[pos])) value = value * 10 + (text[pos++] - '0');
  return value;
}

bool consume(std::string_view text, std::size_t& pos, char expected) {
  if (pos >= text.size() || text[pos] != expected) return false;
  ++pos;
  return true;
}

int daysInMonth(int month, int year) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[static_cast<std::size_t>(month - 1)];
}

// "15:4:5" with an optional fraction (after '.' or ','), as time.Parse reads it.
bool readsClock(std::string_view text, std::size_t& pos) {
  auto hour = oneOrTwoDigits(text, pos);
  if (!hour || *hour >= 24 || !consume(text, pos, ':')) return false;
  auto minute = oneOrTwoDigits(text, pos);
  if (!minute || *minute >= 60 || !consume(text, pos, ':')) return false;
  auto second = oneOrTwoDigits(text, pos);
  if (!second || *second >= 60) return false;
  if (pos + 1 < text.size() && (text[pos] == '.' || text[pos] == ',') && isDigit(text[pos + 1])) {
    for (++pos; pos < text.size() && isDigit(text[pos]);) ++pos;
  }
  return true;
}

// "Z" or "+hh:mm" / "-hh:mm" (hours up to 24, minutes up to 60, as time.Parse allows).
bool readsZone(std::string_view text, std::size_t& pos) {
  if (consume(text, pos, 'Z')) return true;
  if (text.size() - pos < 6 || (text[pos] != '+' && text[pos] != '-') || text[pos + 3] != ':') {
    return false;
  }
  const std::string_view hh = text.substr(pos + 1, 2), mm = text.substr(pos + 4, 2);
  for (char c : std::string{hh} + std::string{mm}) {
    if (!isDigit(c)) return false;
  }
  pos += 6;
  return std::stoi(std::string{hh}) <= 24 && std::stoi(std::string{mm}) <= 60;
}

// go-yaml's timestamps: time.Parse with "2006-1-2T15:4:5.999999999Z07:00" (or a lower-case t),
// "2006-1-2 15:4:5.999999999" or "2006-1-2", the day checked against its month.
bool isTimestamp(std::string_view text) {
  if (text.size() < 5) return false;
  for (std::size_t i = 0; i < 4; ++i) {
    if (!isDigit(text[i])) return false;
  }
  std::size_t pos = 4;
  if (!consume(text, pos, '-')) return false;
  const int year = std::stoi(std::string{text.substr(0, 4)});
  auto month = oneOrTwoDigits(text, pos);
  if (!month || *month < 1 || *month > 12 || !consume(text, pos, '-')) return false;
  auto day = oneOrTwoDigits(text, pos);
  if (!day || *day < 1 || *day > daysInMonth(*month, year)) return false;
  if (pos == text.size()) return true;
  const char separator = text[pos++];
  if (separator == ' ') return readsClock(text, pos) && pos == text.size();
  if (separator != 'T' && separator != 't') return false;
  return readsClock(text, pos) && readsZone(text, pos) && pos == text.size();
}

bool isBase60Float(const std::string& text) {
  static const std::regex kBase60("^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?$");
  return text.find(':') != std::string::npos && std::regex_match(text, kBase60);
}

// Text starting with a sign or digit: a timestamp, an integer, a YAML-style float or a binary
// number, tried in go-yaml's order (underscores are dropped before the numbers are tried).
bool readsAsNumberOrTime(std::string_view text) {
  if (isTimestamp(text)) return true;
  std::string plain;
  for (char c : text) {
    if (c != '_') plain += c;
  }
  if (parsesAsGoInteger(plain, 0)) return true;
  static const std::regex kYamlFloat("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$");
  if (std::regex_match(plain, kYamlFloat) && parsesAsFiniteFloat(plain)) return true;
  return parsesAsPrefixedBinary(plain);
}

// Text starting with '.': Go's decimal float syntax (underscores only between digits).
bool readsAsDotFloat(const std::string& text) {
  static const std::regex kDotFloat("^\\.[0-9](_?[0-9])*([eE][-+]?[0-9](_?[0-9])*)?$");
  return std::regex_match(text, kDotFloat) && parsesAsFiniteFloat(text);
}

}  // namespace

bool plainReadsAsString(std::string_view text) {
  // go-yaml looks only at text whose first character could start something else.
  const char first = text.empty() ? '\0' : text[0];
  const bool sign_or_digit = first == '+' || first == '-' || isDigit(first);
  const bool maybe_word =
      text.empty() || std::string_view("yYnNtTfFoO~.").find(first) != std::string_view::npos;
  if (!sign_or_digit && !maybe_word) return true;
  if (isReservedWord(text)) return false;
  if (first == '.') return !readsAsDotFloat(std::string{text});
  if (sign_or_digit) return !readsAsNumberOrTime(text) && !isBase60Float(std::string{text});
  return true;
}

}  // namespace kf::goyaml
