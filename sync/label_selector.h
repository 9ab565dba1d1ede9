#pragma once
// metav1.LabelSelector evaluated as Kubernetes does (LabelSelectorAsSelector): matchLabels are
// equality requirements, matchExpressions use In / NotIn / Exists / DoesNotExist, and every key
// and value is validated with the label syntax rules. KubeFed selects member clusters with it
// (placement.clusterSelector against KubeFedCluster labels).

#include <string>
#include <string_view>
#include <vector>

#include "apis/federated/federated_resource.h"
#include "apis/meta/object.h"

namespace kf::sync {

enum class SelectorOperator { kEquals, kIn, kNotIn, kExists, kDoesNotExist };

struct LabelRequirement {
  std::string key;
  SelectorOperator op = SelectorOperator::kEquals;
  std::vector<std::string> values;

  bool matches(const StringMap& labels) const;
};

// A validated selector; no requirements matches everything.
struct CompiledLabelSelector {
  std::vector<LabelRequirement> requirements;

  bool matches(const StringMap& labels) const;
};

// Fails (BadRequest) on an unknown operator, In/NotIn without values, Exists/DoesNotExist with
// values, or a key / value that is not valid label syntax. `path` prefixes the message, e.g.
// "spec.placement.clusterSelector.matchExpressions[0]: \"Has\" is not a valid pod selector
// operator".
Result<CompiledLabelSelector> compileLabelSelector(const federated::LabelSelector& selector,
                                                   const meta::FieldPath& path);

// apimachinery's IsQualifiedName / IsValidLabelValue: empty when valid, else the messages.
std::vector<std::string> qualifiedNameErrors(std::string_view value);
std::vector<std::string> labelValueErrors(std::string_view value);

}  // namespace kf::sync
