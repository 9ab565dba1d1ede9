#include "federation/crdgen/go_yaml_scalar.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "federation/crdgen/go_yaml_plain.h"

namespace kf::goyaml {
namespace {

// go-yaml folds at a space once the line is past this column.
constexpr int kLineWidth = 80;

struct Char {
  char32_t code = 0;
  std::string_view bytes;
};

std::vector<Char> decodeUtf8(std::string_view text) {
  std::vector<Char> chars;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t width = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    if (i + width > text.size()) width = text.size() - i;
    char32_t code = width == 1   ? lead
                    : width == 2 ? (lead & 0x1F)
                    : width == 3 ? (lead & 0x0F)
                                 : (lead & 0x07);
    for (std::size_t k = 1; k < width; ++k) {
      code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    }
    chars.push_back({code, text.substr(i, width)});
    i += width;
  }
  return chars;
}

bool isSpace(char32_t c) { return c == ' '; }
bool isBlank(char32_t c) { return c == ' ' || c == '\t'; }
bool isBreak(char32_t c) {
  return c == '\r' || c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029;
}
// What go-yaml prints without an escape (beyond U+FFFF nothing is).
bool isPrintable(char32_t c) {
  return c == '\n' || (c >= 0x20 && c <= 0x7E) || (c >= 0xA0 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF);
}

enum class Style { kPlain, kSingleQuoted, kDoubleQuoted, kLiteral };

// Which styles can print the string and read back the same in block context.
struct Allowed {
  bool multiline = false;
  bool plain = true;
  bool single_quoted = true;
  bool literal = true;
};

// Characters that, where they stand, would make plain text read as something else.
bool hasIndicator(const std::vector<Char>& chars, std::string_view text) {
  if (text.rfind("---", 0) == 0 || text.rfind("...", 0) == 0) return true;
  for (std::size_t i = 0; i < chars.size(); ++i) {
    const char32_t c = chars[i].code;
    const bool space_after = i + 1 == chars.size() || isBlank(chars[i + 1].code);
    if (i == 0) {
      if (std::u32string_view(U"#,[]{}&*!|>'\"%@`").find(c) != std::u32string_view::npos) {
        return true;
      }
      if ((c == '?' || c == ':' || c == '-') && space_after) return true;
    } else {
      const char32_t before = chars[i - 1].code;
      if (c == ':' && space_after) return true;
      if (c == '#' && (isBlank(before) || isBreak(before) || before == 0)) return true;
    }
  }
  return false;
}

Allowed allowedStyles(const std::vector<Char>& chars, std::string_view text) {
  Allowed allowed;
  if (chars.empty()) return allowed;
  bool breaks = false, special = false, edge_space_or_break = false;
  bool break_then_space = false, space_then_break = false, trailing_space = false;
  for (std::size_t i = 0; i < chars.size(); ++i) {
    const char32_t c = chars[i].code;
    const bool edge = i == 0 || i + 1 == chars.size();
    const char32_t before = i == 0 ? 0 : chars[i - 1].code;
    // Beyond go-yaml: it writes U+2028 and U+2029 as they are and indents after them as after
    // a line break, which no reader reads back as the same string; escaped they do.
    if (!isPrintable(c) || c == 0x2028 || c == 0x2029) special = true;
    if (isSpace(c)) {
      edge_space_or_break = edge_space_or_break || edge;
      trailing_space = trailing_space || i + 1 == chars.size();
      break_then_space = break_then_space || (i > 0 && isBreak(before));
    } else if (isBreak(c)) {
      breaks = true;
      edge_space_or_break = edge_space_or_break || edge;
      space_then_break = space_then_break || (i > 0 && isSpace(before));
    }
  }
  allowed.multiline = breaks;
  allowed.plain = !(edge_space_or_break || break_then_space || space_then_break || special ||
                    breaks || hasIndicator(chars, text));
  allowed.single_quoted = !(break_then_space || space_then_break || special);
  allowed.literal = !(trailing_space || space_then_break || special);
  return allowed;
}

Style chooseStyle(std::string_view text, const Allowed& allowed, bool simple_key) {
  Style style = text.find('\n') != std::string_view::npos ? Style::kLiteral
                : plainReadsAsString(text)                ? Style::kPlain
                                                          : Style::kDoubleQuoted;
  if (simple_key && allowed.multiline) style = Style::kDoubleQuoted;
  if (style == Style::kPlain && !allowed.plain) style = Style::kSingleQuoted;
  if (style == Style::kSingleQuoted && !allowed.single_quoted) style = Style::kDoubleQuoted;
  if (style == Style::kLiteral && (!allowed.literal || simple_key)) style = Style::kDoubleQuoted;
  return style;
}

// A space where a fold may replace it: the line is past the width and the space is not part of a
// run (which would lose spaces).
bool foldsAt(const YamlOutput& out, bool may_fold, bool after_space) {
  return may_fold && !after_space && out.column() > kLineWidth;
}

void writePlain(YamlOutput& out, const std::vector<Char>& chars, int indent, bool may_fold) {
  if (!out.endsInWhitespace()) out.character(" ");
  bool after_space = false;
  for (std::size_t i = 0; i < chars.size(); ++i) {
    if (isSpace(chars[i].code)) {
      const bool space_next = i + 1 < chars.size() && isSpace(chars[i + 1].code);
      if (foldsAt(out, may_fold, after_space) && !space_next) {
        out.indent(indent);
      } else {
        out.character(chars[i].bytes);
      }
      after_space = true;
    } else {
      out.character(chars[i].bytes);
      out.setLineIsIndentation(false);
      after_space = false;
    }
  }
  out.setWhitespace(false);
  out.setLineIsIndentation(false);
}

void writeSingleQuoted(YamlOutput& out, const std::vector<Char>& chars, int indent, bool may_fold) {
  out.indicator("'", true);
  bool after_space = false, after_break = false;
  for (std::size_t i = 0; i < chars.size(); ++i) {
    const char32_t c = chars[i].code;
    if (isSpace(c)) {
      const bool inner = i > 0 && i + 1 < chars.size() && !isSpace(chars[i + 1].code);
      if (foldsAt(out, may_fold, after_space) && inner) {
        out.indent(indent);
      } else {
        out.character(chars[i].bytes);
      }
      after_space = true;
    } else if (isBreak(c)) {
      // A line break is written twice so that it survives the fold a reader applies.
      if (!after_break && c == '\n') out.lineBreak("\n");
      out.lineBreak(chars[i].bytes);
      out.setLineIsIndentation(true);
      after_break = true;
    } else {
      if (after_break) out.indent(indent);
      if (c == '\'') out.character("'");
      out.character(chars[i].bytes);
      out.setLineIsIndentation(false);
      after_space = after_break = false;
    }
  }
  out.indicator("'", false);
}

// go-yaml's escapes: the short ones, else \xXX, \uXXXX or \UXXXXXXXX in upper-case hex.
std::string escaped(char32_t c) {
  switch (c) {
    case 0x00:
      return "\\0";
    case 0x07:
      return "\\a";
    case 0x08:
      return "\\b";
    case 0x09:
      return "\\t";
    case 0x0A:
      return "\\n";
    case 0x0B:
      return "\\v";
    case 0x0C:
      return "\\f";
    case 0x0D:
      return "\\r";
    case 0x1B:
      return "\\e";
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case 0x85:
      return "\\N";
    case 0xA0:
      return "\\_";
    case 0x2028:
      return "\\L";
    case 0x2029:
      return "\\P";
    default:
      break;
  }
  char buffer[16];
  if (c <= 0xFF) {
    std::snprintf(buffer, sizeof(buffer), "\\x%02X", static_cast<unsigned>(c));
  } else if (c <= 0xFFFF) {
    std::snprintf(buffer, sizeof(buffer), "\\u%04X", static_cast<unsigned>(c));
  } else {
    std::snprintf(buffer, sizeof(buffer), "\\U%08X", static_cast<unsigned>(c));
  }
  return buffer;
}

void writeDoubleQuoted(YamlOutput& out, const std::vector<Char>& chars, std::string_view text,
                       int indent, bool may_fold) {
  // go-yaml checks for a byte order mark at the start of the string, not at each character: a
  // string that starts with one is escaped whole.
  const bool starts_with_bom = text.rfind("\xEF\xBB\xBF", 0) == 0;
  out.indicator("\"", true);
  bool after_space = false;
  for (std::size_t i = 0; i < chars.size(); ++i) {
    const char32_t c = chars[i].code;
    if (starts_with_bom || !isPrintable(c) || isBreak(c) || c == '"' || c == '\\') {
      for (char e : escaped(c)) out.character(std::string_view(&e, 1));
      after_space = false;
    } else if (isSpace(c)) {
      const bool inner = i > 0 && i + 1 < chars.size();
      if (foldsAt(out, may_fold, after_space) && inner) {
        out.indent(indent);
        // A following space would be taken as indentation: escape where the line starts.
        if (isSpace(chars[i + 1].code)) out.character("\\");
      } else {
        out.character(chars[i].bytes);
      }
      after_space = true;
    } else {
      out.character(chars[i].bytes);
      after_space = false;
    }
  }
  out.indicator("\"", false);
}

// "|" with an indentation digit when the text starts with a space or break (a reader would
// take those for indentation), and "-" (no final break), nothing (one) or "+" (more).
std::string literalHeader(const std::vector<Char>& chars) {
  std::string header = "|";
  if (isSpace(chars.front().code) || isBreak(chars.front().code)) header += "2";
  const bool ends_in_break = isBreak(chars.back().code);
  if (!ends_in_break) {
    header += "-";
  } else if (chars.size() == 1 || isBreak(chars[chars.size() - 2].code)) {
    header += "+";
  }
  return header;
}

void writeLiteral(YamlOutput& out, const std::vector<Char>& chars, int indent) {
  out.indicator(literalHeader(chars), true);
  out.lineBreak("\n");
  out.setLineIsIndentation(true);
  out.setWhitespace(true);
  bool line_start = true;
  for (const Char& c : chars) {
    if (isBreak(c.code)) {
      out.lineBreak(c.bytes);
      out.setLineIsIndentation(true);
      line_start = true;
    } else {
      if (line_start) out.indent(indent);
      out.character(c.bytes);
      out.setLineIsIndentation(false);
      line_start = false;
    }
  }
}

}  // namespace

void YamlOutput::indent(int indent) {
  if (!indentation_ || column_ > indent || (column_ == indent && !whitespace_)) {
    text_ += '\n';
    column_ = 0;
  }
  text_.append(static_cast<std::size_t>(indent - std::min(column_, indent)), ' ');
  column_ = std::max(column_, indent);
  whitespace_ = true;
  indentation_ = true;
}

void YamlOutput::indicator(std::string_view text, bool space_before, bool leaves_whitespace,
                           bool keeps_indentation) {
  if (space_before && !whitespace_) character(" ");
  for (char c : text) character(std::string_view(&c, 1));
  whitespace_ = leaves_whitespace;
  indentation_ = indentation_ && keeps_indentation;
}

void YamlOutput::character(std::string_view bytes) {
  text_ += bytes;
  ++column_;
}

void YamlOutput::lineBreak(std::string_view bytes) {
  text_ += bytes;
  column_ = 0;
}

bool isSimpleKey(std::string_view text) {
  if (text.size() > 128) return false;
  for (const Char& c : decodeUtf8(text)) {
    if (isBreak(c.code)) return false;
  }
  return true;
}

void writeString(YamlOutput& out, std::string_view text, int indent, bool simple_key) {
  const std::vector<Char> chars = decodeUtf8(text);
  const bool may_fold = !simple_key;
  switch (chooseStyle(text, allowedStyles(chars, text), simple_key)) {
    case Style::kPlain:
      writePlain(out, chars, indent, may_fold);
      break;
    case Style::kSingleQuoted:
      writeSingleQuoted(out, chars, indent, may_fold);
      break;
    case Style::kDoubleQuoted:
      writeDoubleQuoted(out, chars, text, indent, may_fold);
      break;
    case Style::kLiteral:
      writeLiteral(out, chars, indent);
      break;
  }
}

void writeWord(YamlOutput& out, std::string_view word) {
  writePlain(out, decodeUtf8(word), 0, false);
}

}  // namespace kf::goyaml
