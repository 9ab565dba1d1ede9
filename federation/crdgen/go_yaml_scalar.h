#pragma once
// The block-style YAML output of KubeFed's writer (go-yaml v2.4.0, which KubeFed's kubefedctl
// uses through sigs.k8s.io/yaml), one piece at a time: the line state it keeps, and how it prints
// a string. Strings are printed plain when go-yaml would read them back as the same string and
// nothing in them stops it (a leading indicator, ": ", " #", leading or trailing spaces), else
// single-quoted; double-quoted when they would not read back as strings ("2", "yes", "") or hold
// characters that need escapes; multi-line strings as literal blocks (`|`, `|-`, `|+`). Plain and
// quoted strings fold at a space once a line has passed 80 columns.

#include <string>
#include <string_view>

namespace kf::goyaml {

// Where the writer is on its line. Columns count characters, not bytes.
class YamlOutput {
 public:
  const std::string& text() const { return text_; }

  // Moves to `indent`: a new line unless the current one holds only indentation up to there.
  void indent(int indent);
  // Writes an indicator ("-", ":", "?", "{}", a quote), after a space if `space_before` and the
  // line does not end in whitespace. `leaves_whitespace` and `keeps_indentation` say how the
  // indicator counts for what follows (a "- " item keeps the line an indentation line).
  void indicator(std::string_view text, bool space_before, bool leaves_whitespace = false,
                 bool keeps_indentation = false);
  // One character (its UTF-8 bytes): one column.
  void character(std::string_view bytes);
  // A line break inside a scalar: '\n' starts a new line; another break character (U+2028,
  // U+2029) is written as is and, as go-yaml counts, also puts the column back to 0.
  void lineBreak(std::string_view bytes);

  int column() const { return column_; }
  bool lineIsIndentation() const { return indentation_; }
  void setLineIsIndentation(bool value) { indentation_ = value; }
  void setWhitespace(bool value) { whitespace_ = value; }
  bool endsInWhitespace() const { return whitespace_; }

 private:
  std::string text_;
  int column_ = 0;
  bool whitespace_ = true;
  bool indentation_ = true;
};

// Whether a mapping key can be written as "key: value": at most 128 bytes and on one line. Other
// keys are written as "? key" with ": value" on the next line.
bool isSimpleKey(std::string_view text);

// Writes a string scalar, after a space if needed. `indent` is where continuation lines (folds,
// literal block lines) start; a `simple_key` is never folded.
void writeString(YamlOutput& out, std::string_view text, int indent, bool simple_key);

// Writes text that is always plain: null, true, false, numbers.
void writeWord(YamlOutput& out, std::string_view word);

}  // namespace kf::goyaml
