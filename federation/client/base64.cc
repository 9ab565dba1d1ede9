#include "federation/client/base64.h"

#include <array>
#include <cstdint>

namespace kf {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::int8_t kInvalid = -1;

constexpr std::array<std::int8_t, 256> makeDecodeTable() {
  std::array<std::int8_t, 256> table{};
  table.fill(kInvalid);
  for (std::size_t i = 0; i < kAlphabet.size(); ++i) {
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  }
  return table;
}

constexpr std::array<std::int8_t, 256> kDecodeTable = makeDecodeTable();

// The alphabet characters and the padding count, or nullopt if anything else is in the text
// or '=' appears before the end.
struct Stripped {
  std::string symbols;
  std::size_t padding = 0;
};

std::optional<Stripped> stripText(std::string_view text) {
  Stripped out;
  out.symbols.reserve(text.size());
  for (const char c : text) {
    if (c == '\n' || c == '\r') continue;
    if (c == '=') {
      ++out.padding;
      continue;
    }
    if (out.padding > 0 || kDecodeTable[static_cast<unsigned char>(c)] == kInvalid) {
      return std::nullopt;
    }
    out.symbols.push_back(c);
  }
  return out;
}

}  // namespace

std::string base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                            static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1]))
                                << 8 |
                            static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
    out.push_back(kAlphabet[n & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (rest == 2) n |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::optional<std::string> base64Decode(std::string_view text) {
  const std::optional<Stripped> stripped = stripText(text);
  if (!stripped) return std::nullopt;
  const std::string& symbols = stripped->symbols;
  const std::size_t tail = symbols.size() % 4;
  // A lone trailing symbol carries fewer than 8 bits; padding, when present, must complete the
  // last group exactly.
  if (tail == 1 || stripped->padding > 2) return std::nullopt;
  if (stripped->padding > 0 && (symbols.size() + stripped->padding) % 4 != 0) return std::nullopt;

  std::string out;
  out.reserve(symbols.size() / 4 * 3 + 2);
  std::uint32_t accumulator = 0;
  int bits = 0;
  for (const char c : symbols) {
    accumulator = (accumulator << 6) |
                  static_cast<std::uint32_t>(kDecodeTable[static_cast<unsigned char>(c)]);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((accumulator >> bits) & 0xFF));
    }
  }
  return out;
}

}  // namespace kf
