#pragma once
// The variables an override policy's values may use, and their syntax. A string value is split
// into literal text and variables:
//   ${CLUSTER_NAME}          the member cluster's name (its KubeFedCluster's name)
//   ${CLUSTER_LABEL:<key>}   the value of the KubeFedCluster's label <key>
// Every "${" starts a variable; anything else inside the braces is an error, so that a typo
// fails at validation instead of reaching the members as text. A "$" not followed by "{" is
// plain text.

#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/api_error.h"

namespace kf::policy {

struct TemplatePart {
  enum class Kind { kText, kClusterName, kClusterLabel };
  Kind kind = Kind::kText;
  std::string text;  // kText: the text; kClusterLabel: the label key

  bool operator==(const TemplatePart&) const = default;
};

// Splits `value` into parts; fails (BadRequest) on an unterminated "${", an unknown variable or
// a label key that is not a valid label key, naming what was found.
Result<std::vector<TemplatePart>> parseTemplate(std::string_view value);

// Whether `value` uses any variable (parseTemplate must have accepted it).
bool usesVariables(std::string_view value);

}  // namespace kf::policy
