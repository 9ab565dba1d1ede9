#include "tests/support/simulated_member/selectors.h"

#include <cctype>

#include "apis/meta/name_validation.h"

namespace kf::sim {
namespace {

ApiError parseError(const std::string& what) {
  return makeError(Reason::kBadRequest, "unable to parse requirement: " + what);
}

// A cursor over one selector's text, skipping blanks between tokens.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool atEnd() {
    skipBlanks();
    return at_ >= text_.size();
  }
  char peek() {
    skipBlanks();
    return at_ < text_.size() ? text_[at_] : '\0';
  }
  bool consume(std::string_view token) {
    skipBlanks();
    if (text_.substr(at_, token.size()) != token) return false;
    at_ += token.size();
    return true;
  }
  // A key or value: everything up to a blank or one of the selector's punctuation characters.
  std::string word() {
    skipBlanks();
    const std::size_t start = at_;
    while (at_ < text_.size() && !isDelimiter(text_[at_])) ++at_;
    return std::string(text_.substr(start, at_ - start));
  }
  // A keyword ("in", "notin") followed by a blank or '('.
  bool keyword(std::string_view word) {
    skipBlanks();
    if (text_.substr(at_, word.size()) != word) return false;
    const std::size_t after = at_ + word.size();
    if (after < text_.size() && !std::isspace(static_cast<unsigned char>(text_[after])) &&
        text_[after] != '(') {
      return false;
    }
    at_ = after;
    return true;
  }

 private:
  static bool isDelimiter(char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == '=' || c == '!' ||
           c == '(' || c == ')' || c == '<' || c == '>';
  }
  void skipBlanks() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

Result<std::string> validKey(std::string key) {
  if (key.empty()) return parseError("found '', expected: identifier");
  if (auto errors = meta::qualifiedNameErrors(key); !errors.empty()) {
    return parseError("key: Invalid value: \"" + key + "\": " + errors.front());
  }
  return key;
}

Status validValue(const std::string& value) {
  if (auto errors = meta::labelValueErrors(value); !errors.empty()) {
    return parseError("values[0]: Invalid value: \"" + value + "\": " + errors.front());
  }
  return boost::outcome_v2::success();
}

Result<std::vector<std::string>> valueSet(Scanner& in) {
  if (!in.consume("("))
    return parseError("found '" + std::string(1, in.peek()) + "', expected: '('");
  std::vector<std::string> values;
  while (true) {
    std::string value = in.word();
    KF_TRYV(validValue(value));
    values.push_back(std::move(value));
    if (in.consume(")")) return values;
    if (!in.consume(","))
      return parseError("found '" + std::string(1, in.peek()) + "', expected: ',' or ')'");
  }
}

Result<meta::LabelRequirement> requirement(Scanner& in) {
  meta::LabelRequirement parsed;
  if (in.consume("!")) {
    KF_TRY(key, validKey(in.word()));
    return meta::LabelRequirement{key, meta::SelectorOperator::kDoesNotExist, {}};
  }
  KF_TRY(key, validKey(in.word()));
  parsed.key = key;
  if (in.atEnd() || in.peek() == ',') {
    parsed.op = meta::SelectorOperator::kExists;
    return parsed;
  }
  if (in.consume("!=")) {
    parsed.op = meta::SelectorOperator::kNotIn;
  } else if (in.consume("==") || in.consume("=")) {
    parsed.op = meta::SelectorOperator::kEquals;
  } else if (in.keyword("notin")) {
    parsed.op = meta::SelectorOperator::kNotIn;
    KF_TRY(values, valueSet(in));
    parsed.values = std::move(values);
    return parsed;
  } else if (in.keyword("in")) {
    parsed.op = meta::SelectorOperator::kIn;
    KF_TRY(values, valueSet(in));
    parsed.values = std::move(values);
    return parsed;
  } else {
    return parseError("found '" + std::string(1, in.peek()) +
                      "', expected: in, notin, =, ==, !=, or the end of the requirement");
  }
  std::string value = in.word();
  KF_TRYV(validValue(value));
  parsed.values = {std::move(value)};
  return parsed;
}

std::string fieldOf(const Json& object, const std::string& field) {
  return field == "metadata.name" ? objectName(object) : objectNamespace(object);
}

}  // namespace

Result<meta::CompiledLabelSelector> parseLabelSelector(std::string_view text) {
  meta::CompiledLabelSelector selector;
  Scanner in(text);
  if (in.atEnd()) return selector;
  while (true) {
    KF_TRY(parsed, requirement(in));
    selector.requirements.push_back(std::move(parsed));
    if (in.atEnd()) return selector;
    if (!in.consume(","))
      return parseError("found '" + std::string(1, in.peek()) + "', expected: ','");
  }
}

Result<std::vector<FieldRequirement>> parseFieldSelector(std::string_view text) {
  std::vector<FieldRequirement> fields;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string term(text.substr(start, end - start));
    start = end + 1;
    if (term.empty()) continue;
    FieldRequirement parsed;
    std::size_t op = term.find("!=");
    std::size_t value_at = op + 2;
    parsed.equals = op == std::string::npos;
    if (parsed.equals) {
      op = term.find('=');
      if (op == std::string::npos) {
        return makeError(Reason::kBadRequest, "invalid selector: '" + std::string(text) +
                                                  "'; can't understand '" + term + "'");
      }
      value_at = term.compare(op, 2, "==") == 0 ? op + 2 : op + 1;
    }
    parsed.field = term.substr(0, op);
    parsed.value = term.substr(value_at);
    if (parsed.field != "metadata.name" && parsed.field != "metadata.namespace") {
      return makeError(Reason::kBadRequest, "field label not supported: " + parsed.field);
    }
    fields.push_back(std::move(parsed));
  }
  return fields;
}

bool Selectors::matches(const Json& object) const {
  for (const FieldRequirement& field : fields) {
    if ((fieldOf(object, field.field) == field.value) != field.equals) return false;
  }
  if (labels.requirements.empty()) return true;
  return labels.matches(objectLabels(object).value_or(StringMap{}));
}

}  // namespace kf::sim
