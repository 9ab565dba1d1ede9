#include "apis/meta/label_selector.h"

#include <algorithm>

#include "apis/meta/field_errors.h"
#include "apis/meta/join.h"
#include "apis/meta/name_validation.h"

namespace kf::meta {

namespace {

ApiError selectorError(const FieldPath& path, const std::string& what) {
  return makeError(Reason::kBadRequest, path.str() + ": " + what);
}

Status validateKey(const std::string& key, const FieldPath& path) {
  auto errors = qualifiedNameErrors(key);
  if (errors.empty()) return boost::outcome_v2::success();
  return selectorError(path, "invalid label key " + goQuote(key) + ": " + joinWith(errors, "; "));
}

Status validateValue(const std::string& key, const std::string& value, const FieldPath& path) {
  auto errors = labelValueErrors(value);
  if (errors.empty()) return boost::outcome_v2::success();
  return selectorError(path, "invalid label value: " + goQuote(value) +
                                 ": at key: " + goQuote(key) + ": " + joinWith(errors, "; "));
}

Result<SelectorOperator> parseOperator(const std::string& op, const FieldPath& path) {
  if (op == "In") return SelectorOperator::kIn;
  if (op == "NotIn") return SelectorOperator::kNotIn;
  if (op == "Exists") return SelectorOperator::kExists;
  if (op == "DoesNotExist") return SelectorOperator::kDoesNotExist;
  return selectorError(path, goQuote(op) + " is not a valid pod selector operator");
}

// labels.NewRequirement's checks: the key, the number of values for the operator, each value.
Result<LabelRequirement> makeRequirement(std::string key, SelectorOperator op,
                                         std::vector<std::string> values, const FieldPath& path) {
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

Result<std::map<std::string, std::string>> readMatchLabels(const Json& json,
                                                           const FieldPath& path) {
  if (!json.is_object()) return decodeError(path, "expected object");
  std::map<std::string, std::string> labels;
  for (const auto& [key, value] : json.items()) {
    KF_TRY(text, readString(value, path.key(key)));
    labels.emplace(key, std::move(text));
  }
  return labels;
}

Result<LabelSelectorRequirement> readRequirement(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  LabelSelectorRequirement out;
  KF_TRY(key, reader.string("key"));
  KF_TRY(op, reader.string("operator"));
  out.key = std::move(key);
  out.op = std::move(op);
  if (const Json* values = reader.plainValue("values")) {
    KF_TRY(list, readStringArray(*values, reader.path("values")));
    out.values = std::move(list);
  }
  return out;
}
}  // namespace

Result<LabelSelector> readLabelSelector(const Json& json, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(json, path));
  LabelSelector out;
  if (const Json* labels = reader.plainValue("matchLabels")) {
    KF_TRY(value, readMatchLabels(*labels, reader.path("matchLabels")));
    out.match_labels = std::move(value);
  }
  if (const Json* expressions = reader.plainValue("matchExpressions")) {
    KF_TRY(value, readArray<LabelSelectorRequirement>(*expressions, reader.path("matchExpressions"),
                                                      readRequirement));
    out.match_expressions = std::move(value);
  }
  return out;
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

Result<CompiledLabelSelector> compileLabelSelector(const LabelSelector& selector,
                                                   const FieldPath& path) {
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

}  // namespace kf::meta
