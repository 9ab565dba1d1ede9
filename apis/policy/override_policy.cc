#include "apis/policy/override_policy.h"

#include <algorithm>
#include <set>

#include "apis/meta/field_errors.h"
#include "apis/meta/json_reader.h"
#include "apis/policy/override_variables.h"

namespace kf::policy {

using meta::ErrorList;
using meta::FieldPath;

namespace {

const std::vector<std::string> kOperations = {"add", "replace", "remove"};

ApiError invalidPolicy(const ErrorList& errors) {
  return makeError(Reason::kBadRequest, meta::aggregate(errors));
}

bool isForbiddenPath(std::string_view path) {
  return std::find(std::begin(kPolicyForbiddenPaths), std::end(kPolicyForbiddenPaths), path) !=
         std::end(kPolicyForbiddenPaths);
}

// Every string in `value` (object members and array elements, recursively) must parse.
void checkVariables(const Json& value, const FieldPath& path, ErrorList& errors) {
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    auto parsed = parseTemplate(text);
    if (!parsed)
      errors.push_back(meta::invalid(path, meta::BadValue::quoted(text), parsed.error().message));
    return;
  }
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) checkVariables(member, path.key(key), errors);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) checkVariables(value[i], path.index(i), errors);
  }
}

void checkOverride(const PolicyOverride& item, const FieldPath& path, std::set<std::string>& paths,
                   ErrorList& errors) {
  if (!item.op.empty() &&
      std::find(kOperations.begin(), kOperations.end(), item.op) == kOperations.end()) {
    errors.push_back(meta::notSupported(path.child("op"), item.op, kOperations));
  }
  if (item.path.empty() || item.path.front() != '/') {
    errors.push_back(meta::invalid(path.child("path"), meta::BadValue::quoted(item.path),
                                   "must be a JSON pointer starting with \"/\""));
  } else if (isForbiddenPath(item.path)) {
    errors.push_back(meta::invalid(path.child("path"), meta::BadValue::quoted(item.path),
                                   "may not be overridden"));
  } else if (!paths.insert(item.path).second) {
    errors.push_back(meta::duplicate(path.child("path"), item.path));
  }
  if (item.value) checkVariables(*item.value, path.child("value"), errors);
}

Result<PolicyOverride> readOverride(const Json& json, const FieldPath& path) {
  KF_TRY(reader, meta::ObjectReader::open(json, path));
  PolicyOverride out;
  KF_TRY(op, reader.string("op"));
  KF_TRY(patch_path, reader.string("path"));
  out.op = std::move(op);
  out.path = std::move(patch_path);
  if (const Json* value = reader.optValue("value")) out.value = *value;
  return out;
}

// The selector at `json` (null: none), compiled; problems go to `errors`.
std::optional<meta::CompiledLabelSelector> selectorAt(const Json* json, const FieldPath& path,
                                                      ErrorList& errors) {
  if (json == nullptr) return std::nullopt;
  auto read = meta::readLabelSelector(*json, path);
  if (!read) {
    errors.push_back(meta::invalid(path, meta::BadValue::bare(json->dump()), read.error().message));
    return std::nullopt;
  }
  auto compiled = meta::compileLabelSelector(read.value(), path);
  if (!compiled) {
    errors.push_back(
        meta::invalid(path, meta::BadValue::bare(json->dump()), compiled.error().message));
    return std::nullopt;
  }
  return std::move(compiled).value();
}

void readResourceSelector(meta::ObjectReader& spec, OverridePolicy& out, ErrorList& errors) {
  const FieldPath path = spec.path("resourceSelector");
  const Json* selector = spec.plainValue("resourceSelector");
  if (selector == nullptr) {
    errors.push_back(meta::required(path, "the federated kind the policy applies to"));
    return;
  }
  auto reader = meta::ObjectReader::open(*selector, path);
  if (!reader) {
    errors.push_back(
        meta::invalid(path, meta::BadValue::bare(selector->dump()), "must be an object"));
    return;
  }
  auto kind = reader.value().string("kind");
  if (!kind || kind.value().empty()) {
    errors.push_back(meta::required(path.child("kind"), "e.g. FederatedDeployment"));
  } else {
    out.resource_kind = std::move(kind).value();
  }
  auto labels =
      selectorAt(reader.value().plainValue("labelSelector"), path.child("labelSelector"), errors);
  if (labels) out.resource_labels = std::move(*labels);
}

void readClusters(meta::ObjectReader& spec, OverridePolicy& out, ErrorList& errors) {
  const Json* selector = spec.plainValue("clusterSelector");
  const Json* names = spec.plainValue("clusterNames");
  if (selector != nullptr && names != nullptr) {
    errors.push_back(meta::forbidden(spec.path("clusterNames"),
                                     "set clusterSelector or clusterNames, not both"));
    return;
  }
  out.cluster_selector = selectorAt(selector, spec.path("clusterSelector"), errors);
  if (names != nullptr) {
    auto read = meta::readStringArray(*names, spec.path("clusterNames"));
    if (!read) {
      errors.push_back(meta::invalid(spec.path("clusterNames"), meta::BadValue::bare(names->dump()),
                                     read.error().message));
    } else {
      out.cluster_names = std::move(read).value();
    }
  }
}

void readOverrides(meta::ObjectReader& spec, OverridePolicy& out, ErrorList& errors) {
  const FieldPath path = spec.path("overrides");
  const Json* list = spec.plainValue("overrides");
  if (list == nullptr || (list->is_array() && list->empty())) {
    errors.push_back(meta::required(path, "at least one override"));
    return;
  }
  auto read = meta::readArray<PolicyOverride>(*list, path, readOverride);
  if (!read) {
    errors.push_back(meta::invalid(path, meta::BadValue::bare(list->dump()), read.error().message));
    return;
  }
  out.overrides = std::move(read).value();
  std::set<std::string> paths;
  for (std::size_t i = 0; i < out.overrides.size(); ++i) {
    checkOverride(out.overrides[i], path.index(i), paths, errors);
  }
}

}  // namespace

GroupVersionResource overridePoliciesResource() {
  return {std::string(kGroup), std::string(kVersion), "overridepolicies", true};
}

GroupVersionResource clusterOverridePoliciesResource() {
  return {std::string(kGroup), std::string(kVersion), "clusteroverridepolicies", false};
}

std::string OverridePolicy::key() const { return ns.empty() ? name : ns + "/" + name; }

std::string OverridePolicy::describe() const { return kind + " " + meta::goQuote(key()); }

Result<OverridePolicy> parseOverridePolicy(const Json& object) {
  OverridePolicy out;
  out.kind = object.is_object() ? object.value("kind", "") : "";
  if (out.kind != kOverridePolicyKind && out.kind != kClusterOverridePolicyKind) {
    return makeError(Reason::kBadRequest,
                     "kind: " + meta::goQuote(out.kind) +
                         " is neither OverridePolicy nor ClusterOverridePolicy");
  }
  out.name = objectName(object);
  out.ns = out.clusterScoped() ? "" : objectNamespace(object);
  out.generation = objectGeneration(object);
  const Json spec_json = object.value("spec", Json());  // the reader keeps a reference
  auto spec = meta::ObjectReader::open(spec_json, FieldPath("spec"));
  if (!spec) return spec.error();
  ErrorList errors;
  readResourceSelector(spec.value(), out, errors);
  readClusters(spec.value(), out, errors);
  readOverrides(spec.value(), out, errors);
  if (!errors.empty()) return invalidPolicy(errors);
  return out;
}

std::string resourceKindOf(const Json& object) {
  const Json* spec = object.is_object() && object.contains("spec") ? &object["spec"] : nullptr;
  if (spec == nullptr || !spec->is_object()) return "";
  const auto selector = spec->find("resourceSelector");
  if (selector == spec->end() || !selector->is_object()) return "";
  const auto kind = selector->find("kind");
  return kind != selector->end() && kind->is_string() ? kind->get<std::string>() : "";
}

}  // namespace kf::policy
