#include "apis/encoding/go_json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

namespace kf {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

bool isContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the well-formed UTF-8 sequence starting at text[i], or 0 when there is none. Like
// Go's utf8.DecodeRune this rejects overlong forms, surrogates and code points above U+10FFFF,
// and a bad sequence is consumed one byte at a time (each such byte becomes one U+FFFD).
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = at(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char second_min = 0x80;
  unsigned char second_max = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) second_min = 0xA0;  // overlong
    if (lead == 0xED) second_max = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) second_min = 0x90;  // overlong
    if (lead == 0xF4) second_max = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (text.size() - i < length) return 0;
  if (at(1) < second_min || at(1) > second_max) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (!isContinuation(at(k))) return 0;
  }
  return length;
}

void appendUnicodeEscape(std::string& out, unsigned code) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHexDigits[(code >> shift) & 0xF];
}

// ASCII that Go writes verbatim with HTML escaping on: printable, minus the JSON specials and the
// characters that could close a <script> element.
bool isSafeAscii(unsigned char c) {
  return c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
}

void appendEscapedAscii(std::string& out, unsigned char c) {
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      appendUnicodeEscape(out, c);
  }
}

void appendString(std::string& out, std::string_view text) {
  out += '"';
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (isSafeAscii(c)) {
        out += static_cast<char>(c);
      } else {
        appendEscapedAscii(out, c);
      }
      ++i;
      continue;
    }
    const std::size_t length = utf8SequenceLength(text, i);
    if (length == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    // U+2028 and U+2029 end a line in JavaScript; Go escapes them for JSONP safety.
    const auto third = length == 3 ? static_cast<unsigned char>(text[i + 2]) : 0;
    if (c == 0xE2 && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
        (third == 0xA8 || third == 0xA9)) {
      appendUnicodeEscape(out, third == 0xA8 ? 0x2028 : 0x2029);
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  out += '"';
}

// The parts of a shortest round-trip decimal: value = 0.digits × 10^point.
struct ShortestDecimal {
  std::string digits;  // no leading or trailing zeros
  int point = 0;
};

// std::to_chars in scientific form gives the same shortest digits as Go's strconv ('-1'
// precision); only the layout differs, so take the digits and lay them out as Go does.
ShortestDecimal shortestDecimal(double magnitude) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  const std::size_t e = text.find('e');
  ShortestDecimal decimal;
  for (char c : text.substr(0, e)) {
    if (c != '.') decimal.digits += c;
  }
  int exponent = 0;
  const std::string_view exponent_text = text.substr(e + 1);
  const char* first = exponent_text.data() + (exponent_text.front() == '+' ? 1 : 0);
  std::from_chars(first, exponent_text.data() + exponent_text.size(), exponent);
  decimal.point = exponent + 1;
  return decimal;
}

// strconv.FormatFloat(x, 'e', -1, 64) then encoding/json's clean-up of "e-07" to "e-7".
void appendExponentForm(std::string& out, const ShortestDecimal& decimal) {
  out += decimal.digits[0];
  if (decimal.digits.size() > 1) {
    out += '.';
    out.append(decimal.digits, 1);
  }
  // Exponents here are >= 21 or <= -7, and the only padding strconv adds ("e-07") is what
  // encoding/json strips again: no exponent is padded.
  const int exponent = decimal.point - 1;
  out += exponent < 0 ? "e-" : "e+";
  out += std::to_string(std::abs(exponent));
}

// strconv.FormatFloat(x, 'f', -1, 64).
void appendPlainForm(std::string& out, const ShortestDecimal& decimal) {
  const int digit_count = static_cast<int>(decimal.digits.size());
  if (decimal.point <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-decimal.point), '0');
    out += decimal.digits;
  } else if (decimal.point >= digit_count) {
    out += decimal.digits;
    out.append(static_cast<std::size_t>(decimal.point - digit_count), '0');
  } else {
    out.append(decimal.digits, 0, static_cast<std::size_t>(decimal.point));
    out += '.';
    out.append(decimal.digits, static_cast<std::size_t>(decimal.point));
  }
}

class Encoder {
 public:
  // On a value Go refuses, records Go's error (the first one) and writes null in its place.
  void value(const Json& value) {
    switch (value.type()) {
      case Json::value_t::null:
        out_ += "null";
        return;
      case Json::value_t::boolean:
        out_ += value.get<bool>() ? "true" : "false";
        return;
      case Json::value_t::number_integer:
        integer(value.get<std::int64_t>());
        return;
      case Json::value_t::number_unsigned:
        unsignedInteger(value.get<std::uint64_t>());
        return;
      case Json::value_t::number_float:
        floatingPoint(value.get<double>());
        return;
      case Json::value_t::string:
        appendString(out_, value.get_ref<const Json::string_t&>());
        return;
      case Json::value_t::array:
        array(value);
        return;
      case Json::value_t::object:
        object(value);
        return;
      case Json::value_t::binary:
      case Json::value_t::discarded:
        fail("json: unsupported type: binary or discarded value");
        return;
    }
  }

  std::string& out() { return out_; }
  const std::string& error() const { return error_; }

 private:
  void integer(std::int64_t number) {
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
    out_.append(buffer, result.ptr);
  }

  // Kubernetes decodes integers that do not fit int64 as float64; nlohmann keeps the ones up to
  // 2^64-1 exact, so give them the float64 Go would have had.
  void unsignedInteger(std::uint64_t number) {
    if (number <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      integer(static_cast<std::int64_t>(number));
    } else {
      floatingPoint(static_cast<double>(number));
    }
  }

  void floatingPoint(double number) {
    if (!std::isfinite(number)) {
      fail(std::isnan(number) ? "json: unsupported value: NaN"
           : number > 0       ? "json: unsupported value: +Inf"
                              : "json: unsupported value: -Inf");
      return;
    }
    if (std::signbit(number)) out_ += '-';
    const double magnitude = std::fabs(number);
    if (magnitude == 0) {
      out_ += '0';
      return;
    }
    const ShortestDecimal decimal = shortestDecimal(magnitude);
    if (magnitude < 1e-6 || magnitude >= 1e21) {
      appendExponentForm(out_, decimal);
    } else {
      appendPlainForm(out_, decimal);
    }
  }

  void array(const Json& value) {
    out_ += '[';
    bool first = true;
    for (const Json& element : value) {
      if (!first) out_ += ',';
      first = false;
      this->value(element);
    }
    out_ += ']';
  }

  // nlohmann keeps object members in a std::map<std::string, ...>, and std::string compares as
  // unsigned bytes: exactly Go's order of map keys, so no sorting is needed here.
  void object(const Json& value) {
    out_ += '{';
    bool first = true;
    for (const auto& [key, member] : value.get_ref<const Json::object_t&>()) {
      if (!first) out_ += ',';
      first = false;
      appendString(out_, key);
      out_ += ':';
      this->value(member);
    }
    out_ += '}';
  }

  void fail(std::string message) {
    out_ += "null";
    if (error_.empty()) error_ = std::move(message);
  }

  std::string out_;
  std::string error_;
};

}  // namespace

EncodeResult goJsonMarshal(const Json& value) {
  Encoder encoder;
  encoder.value(value);
  if (!encoder.error().empty()) return {"", encoder.error()};
  return {std::move(encoder.out()), ""};
}

std::string goJsonEncode(const Json& value) {
  Encoder encoder;
  encoder.value(value);
  return std::move(encoder.out());
}

std::string goJsonEncodeLine(const Json& value) {
  Encoder encoder;
  encoder.value(value);
  encoder.out() += '\n';
  return std::move(encoder.out());
}

std::string goJsonQuote(std::string_view text) {
  std::string out;
  appendString(out, text);
  return out;
}

std::string toValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = utf8SequenceLength(text, i);
    if (length == 0) {
      out += kReplacementChar;
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

}  // namespace kf
