#pragma once
// metav1.LabelSelector: read from JSON and evaluated as Kubernetes does (LabelSelectorAsSelector):
// matchLabels are equality requirements, matchExpressions use In / NotIn / Exists /
// DoesNotExist, and every key and value is validated with the label syntax rules. KubeFed
// selects member clusters with it (placement.clusterSelector against KubeFedCluster labels), in
// the sync controller and in ReplicaSchedulingPreference scheduling alike.

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/json_reader.h"
#include "apis/meta/object.h"

namespace kf::meta {

struct LabelSelectorRequirement {
  std::string key;
  std::string op;  // "In" | "NotIn" | "Exists" | "DoesNotExist" (checked when compiled)
  std::vector<std::string> values;
};

struct LabelSelector {
  std::map<std::string, std::string> match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
};

// A selector's JSON, with the field path of any value of the wrong type.
Result<LabelSelector> readLabelSelector(const Json& json, const FieldPath& path);

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
Result<CompiledLabelSelector> compileLabelSelector(const LabelSelector& selector,
                                                   const FieldPath& path);

// The names of `items` (anything with a `name` and `labels`) whose labels `selector` matches;
// fails as compileLabelSelector does.
template <typename Labeled>
Result<std::set<std::string>> namesMatching(const LabelSelector& selector,
                                            const std::vector<Labeled>& items,
                                            const FieldPath& path) {
  KF_TRY(compiled, compileLabelSelector(selector, path));
  std::set<std::string> names;
  for (const Labeled& item : items) {
    if (compiled.matches(item.labels)) names.insert(item.name);
  }
  return names;
}

}  // namespace kf::meta
