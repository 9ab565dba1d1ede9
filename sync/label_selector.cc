#include "sync/label_selector.h"

#include <algorithm>

#include "apis/meta/field_errors.h"
#include "apis/meta/join.h"
#include "apis/meta/name_validation.h"

namespace kf::sync {

namespace {

constexpr std::size_t kQualifiedNameMaxLength = 63;
constexpr std::size_t kLabelValueMaxLength = 63;
constexpr std::string_view kQualifiedNameFormat = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelValueFormat = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kQualifiedNameMessage =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelValueMessage =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";

bool isAlphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool isQualifiedNamePart(std::string_view text) {
  if (text.empty() || !isAlphanumeric(text.front()) || !isAlphanumeric(text.back())) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return isAlphanumeric(c) || c == '-' || c == '_' || c == '.'; });
}

// apimachinery's RegexError, spacing included ("'a',  or 'b', ").
std::string regexError(std::string_view message, std::string_view format,
                       const std::vector<std::string_view>& examples) {
  std::string out(message);
  out += " (e.g. ";
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) out += " or ";
    out += "'" + std::string(examples[i]) + "', ";
  }
  return out + "regex used for validation is '" + std::string(format) + "')";
}

std::string maxLengthError(std::size_t length) {
  return "must be no more than " + std::to_string(length) + " characters";
}

ApiError selectorError(const meta::FieldPath& path, const std::string& what) {
  return makeError(Reason::kBadRequest, path.str() + ": " + what);
}

Status validateKey(const std::string& key, const meta::FieldPath& path) {
  auto errors = qualifiedNameErrors(key);
  if (errors.empty()) return boost::outcome_v2::success();
  return selectorError(path,
                       "invalid label key " + meta::goQuote(key) + ": " + joinWith(errors, "; "));
}

Status validateValue(const std::string& key, const std::string& value,
                     const meta::FieldPath& path) {
  auto errors = labelValueErrors(value);
  if (errors.empty()) return boost::outcome_v2::success();
  return selectorError(path, "invalid label value: " + meta::goQuote(value) +
                                 ": at key: " + meta::goQuote(key) + ": " + joinWith(errors, "; "));
}

Result<SelectorOperator> parseOperator(const std::string& op, const meta::FieldPath& path) {
  if (op == "In") return SelectorOperator::kIn;
  if (op == "NotIn") return SelectorOperator::kNotIn;
  if (op == "Exists") return SelectorOperator::kExists;
  if (op == "DoesNotExist") return SelectorOperator::kDoesNotExist;
  return selectorError(path, meta::goQuote(op) + " is not a valid pod selector operator");
}

// labels.NewRequirement's checks: the key, the number of values for the operator, each value.
Result<LabelRequirement> makeRequirement(std::string key, SelectorOperator op,
                                         std::vector<std::string> values,
                                         const meta::FieldPath& path) {
  if (auto valid = validateKey(key, path); !valid) return std::move(valid).error();
  const bool set_operator = op == SelectorOperator::kIn || op == SelectorOperator::kNotIn;
  const bool exists_operator =
      op == SelectorOperator::kExists || op == SelectorOperator::kDoesNotExist;
  if (set_operator && values.empty()) {
    return selectorError(path, "for 'in', 'notin' operators, values set can't be empty");
  }
  if (exists_operator && !values.empty()) {
    return selectorError(path, "values set must be empty for exists and does not exist");
  }
  for (const auto& value : values) {
    if (auto valid = validateValue(key, value, path); !valid) return std::move(valid).error();
  }
  return LabelRequirement{std::move(key), op, std::move(values)};
}

}  // namespace

std::vector<std::string> qualifiedNameErrors(std::string_view value) {
  std::vector<std::string> errors;
  std::string_view name = value;
  const auto slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errors.push_back("a qualified name " +
                       regexError(kQualifiedNameMessage, kQualifiedNameFormat,
                                  {"MyName", "my.name", "123-abc"}) +
                       " with an optional DNS subdomain prefix and '/' (e.g. "
                       "'example.com/MyName')");
      return errors;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errors.push_back("prefix part must be non-empty");
    } else {
      for (const auto& message : meta::dns1123SubdomainErrors(prefix)) {
        errors.push_back("prefix part " + message);
      }
    }
  }
  if (name.empty()) {
    errors.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errors.push_back("name part " + maxLengthError(kQualifiedNameMaxLength));
  }
  if (!isQualifiedNamePart(name)) {
    errors.push_back("name part " + regexError(kQualifiedNameMessage, kQualifiedNameFormat,
                                               {"MyName", "my.name", "123-abc"}));
  }
  return errors;
}

std::vector<std::string> labelValueErrors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > kLabelValueMaxLength) errors.push_back(maxLengthError(kLabelValueMaxLength));
  if (!value.empty() && !isQualifiedNamePart(value)) {
    errors.push_back(
        regexError(kLabelValueMessage, kLabelValueFormat, {"MyValue", "my_value", "12345"}));
  }
  return errors;
}

bool LabelRequirement::matches(const StringMap& labels) const {
  auto it = labels.find(key);
  const bool present = it != labels.end();
  const auto listed = [&] {
    return std::find(values.begin(), values.end(), it->second) != values.end();
  };
  switch (op) {
    case SelectorOperator::kEquals:
    case SelectorOperator::kIn:
      return present && listed();
    case SelectorOperator::kNotIn:
      return !present || !listed();
    case SelectorOperator::kExists:
      return present;
    case SelectorOperator::kDoesNotExist:
      return !present;
  }
  return false;
}

bool CompiledLabelSelector::matches(const StringMap& labels) const {
  return std::all_of(requirements.begin(), requirements.end(),
                     [&](const LabelRequirement& r) { return r.matches(labels); });
}

Result<CompiledLabelSelector> compileLabelSelector(const federated::LabelSelector& selector,
                                                   const meta::FieldPath& path) {
  CompiledLabelSelector out;
  for (const auto& [key, value] : selector.match_labels) {
    KF_TRY(requirement,
           makeRequirement(key, SelectorOperator::kEquals, {value}, path.child("matchLabels")));
    out.requirements.push_back(std::move(requirement));
  }
  for (std::size_t i = 0; i < selector.match_expressions.size(); ++i) {
    const auto& expression = selector.match_expressions[i];
    const auto expression_path = path.child("matchExpressions").index(i);
    KF_TRY(op, parseOperator(expression.op, expression_path));
    KF_TRY(requirement, makeRequirement(expression.key, op, expression.values, expression_path));
    out.requirements.push_back(std::move(requirement));
  }
  return out;
}

}  // namespace kf::sync
