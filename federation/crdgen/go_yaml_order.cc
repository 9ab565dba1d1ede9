#include "federation/crdgen/go_yaml_order.h"

#include <algorithm>
#include <string>
#include <vector>

namespace kf {
namespace {

bool isDigitByte(char c) { return c >= '0' && c <= '9'; }

// Bytes of multi-byte UTF-8 characters count as letters; their byte order is their code point
// order, as go-yaml compares runes.
bool isLetterByte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || byte >= 0x80;
}

// The number a digit run starting at `from` spells, and where the run ends. Like go-yaml's int64,
// a run too long for 64 bits wraps around (computed unsigned: no undefined overflow).
std::pair<std::int64_t, std::size_t> digitRun(std::string_view text, std::size_t from,
                                              std::int64_t start) {
  auto value = static_cast<std::uint64_t>(start);
  std::size_t end = from;
  for (; end < text.size() && isDigitByte(text[end]); ++end) {
    value = value * 10 + static_cast<std::uint64_t>(text[end] - '0');
  }
  return {static_cast<std::int64_t>(value), end};
}

}  // namespace

bool goYamlKeyLess(std::string_view a, std::string_view b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) continue;
    const bool a_letter = isLetterByte(a[i]);
    const bool b_letter = isLetterByte(b[i]);
    if (a_letter && b_letter) {
      return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
    }
    if (a_letter || b_letter) return b_letter;  // a non-letter first
    // Two non-letters: compare the digit runs starting here as numbers. A zero here continues a
    // number that began with another digit, so both sides start from 1 rather than from 0.
    std::int64_t start = 0;
    if (a[i] == '0' || b[i] == '0') {
      for (std::size_t j = i; j > 0 && isDigitByte(a[j - 1]); --j) {
        if (a[j - 1] != '0') {
          start = 1;
          break;
        }
      }
    }
    const auto [a_number, a_end] = digitRun(a, i, start);
    const auto [b_number, b_end] = digitRun(b, i, start);
    if (a_number != b_number) return a_number < b_number;
    if (a_end != b_end) return a_end < b_end;
    return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  }
  return a.size() < b.size();
}

nlohmann::ordered_json sortedLikeGoYaml(const nlohmann::ordered_json& value) {
  if (value.is_array()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& item : value) out.push_back(sortedLikeGoYaml(item));
    return out;
  }
  if (!value.is_object()) return value;
  std::vector<std::string> keys;
  for (const auto& [key, unused] : value.items()) keys.push_back(key);
  std::stable_sort(keys.begin(), keys.end(), goYamlKeyLess);
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& key : keys) out[key] = sortedLikeGoYaml(value.at(key));
  return out;
}

}  // namespace kf
