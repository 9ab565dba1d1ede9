#include "apis/policy/override_variables.h"

#include "apis/meta/field_errors.h"
#include "apis/meta/join.h"
#include "apis/meta/name_validation.h"

namespace kf::policy {

namespace {

constexpr std::string_view kOpen = "${";
constexpr std::string_view kClusterNameVariable = "CLUSTER_NAME";
constexpr std::string_view kClusterLabelPrefix = "CLUSTER_LABEL:";

ApiError templateError(std::string message) {
  return makeError(Reason::kBadRequest, std::move(message));
}

Result<TemplatePart> variablePart(std::string_view name) {
  if (name == kClusterNameVariable) return TemplatePart{TemplatePart::Kind::kClusterName, ""};
  if (name.starts_with(kClusterLabelPrefix)) {
    const std::string_view key = name.substr(kClusterLabelPrefix.size());
    const std::vector<std::string> problems = meta::qualifiedNameErrors(key);
    if (!problems.empty()) {
      return templateError("variable ${" + std::string(name) + "}: label key " +
                           meta::goQuote(key) + " is not valid: " + joinWith(problems, "; "));
    }
    return TemplatePart{TemplatePart::Kind::kClusterLabel, std::string(key)};
  }
  return templateError("unknown variable ${" + std::string(name) +
                       "}: the variables are ${CLUSTER_NAME} and ${CLUSTER_LABEL:<key>}");
}

}  // namespace

Result<std::vector<TemplatePart>> parseTemplate(std::string_view value) {
  std::vector<TemplatePart> parts;
  std::size_t position = 0;
  while (position < value.size()) {
    const std::size_t open = value.find(kOpen, position);
    if (open == std::string_view::npos) break;
    if (open > position) {
      parts.push_back(
          {TemplatePart::Kind::kText, std::string(value.substr(position, open - position))});
    }
    const std::size_t close = value.find('}', open + kOpen.size());
    if (close == std::string_view::npos) {
      return templateError("unterminated variable at offset " + std::to_string(open) +
                           ": \"${\" without a closing \"}\"");
    }
    KF_TRY(part, variablePart(value.substr(open + kOpen.size(), close - open - kOpen.size())));
    parts.push_back(std::move(part));
    position = close + 1;
  }
  if (position < value.size()) {
    parts.push_back({TemplatePart::Kind::kText, std::string(value.substr(position))});
  }
  return parts;
}

bool usesVariables(std::string_view value) { return value.find(kOpen) != std::string_view::npos; }

}  // namespace kf::policy
