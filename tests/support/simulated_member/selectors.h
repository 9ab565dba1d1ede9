#pragma once
// The labelSelector and fieldSelector query parameters of list and watch requests, parsed as the
// API server parses them: "a=b,c!=d,e,!f,g in (x,y),h notin (z)" for labels; metadata.name and
// metadata.namespace with =, == and != for fields (the only field labels every resource
// supports). Gt and Lt ("a>1") are refused as unsupported.

#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/api_error.h"
#include "apis/meta/label_selector.h"

namespace kf::sim {

struct FieldRequirement {
  std::string field;  // "metadata.name" or "metadata.namespace"
  std::string value;
  bool equals = true;  // false: !=
};

struct Selectors {
  meta::CompiledLabelSelector labels;
  std::vector<FieldRequirement> fields;

  bool matches(const Json& object) const;
  bool empty() const { return labels.requirements.empty() && fields.empty(); }
};

// Fails (the message as the API server's BadRequest says it) on a selector it cannot parse.
Result<meta::CompiledLabelSelector> parseLabelSelector(std::string_view text);
Result<std::vector<FieldRequirement>> parseFieldSelector(std::string_view text);

}  // namespace kf::sim
