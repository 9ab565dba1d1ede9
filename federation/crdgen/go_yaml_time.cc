#include "federation/crdgen/go_yaml_time.h"

#include <array>
#include <optional>
#include <string>

namespace kf::goyaml {
namespace {

bool isTimeDigit(char c) { return c >= '0' && c <= '9'; }

// Up to two digits as Go's time.Parse reads "1", "2", "15", "4" and "5".
std::optional<int> oneOrTwoDigits(std::string_view text, std::size_t& pos) {
  if (pos >= text.size() || !isTimeDigit(text[pos])) return std::nullopt;
  int value = text[pos++] - '0';
  if (pos < text.size() && isTimeDigit(text[pos])) value = value * 10 + (text[pos++] - '0');
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
  if (pos + 1 < text.size() && (text[pos] == '.' || text[pos] == ',') &&
      isTimeDigit(text[pos + 1])) {
    for (++pos; pos < text.size() && isTimeDigit(text[pos]);) ++pos;
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
    if (!isTimeDigit(c)) return false;
  }
  pos += 6;
  return std::stoi(std::string{hh}) <= 24 && std::stoi(std::string{mm}) <= 60;
}

}  // namespace

bool isTimestamp(std::string_view text) {
  if (text.size() < 5) return false;
  for (std::size_t i = 0; i < 4; ++i) {
    if (!isTimeDigit(text[i])) return false;
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

}  // namespace kf::goyaml
