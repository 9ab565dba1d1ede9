#include "cmd/kubefedctl/member_diff.h"

#include "cmd/kubefedctl/unified_diff.h"
#include "federation/crdgen/yaml_json.h"

namespace kf::kubefedctl {
namespace {

constexpr const char* kMask = "***";
constexpr const char* kMaskBefore = "*** (before)";
constexpr const char* kMaskAfter = "*** (after)";
constexpr const char* kLastApplied = "kubectl.kubernetes.io/last-applied-configuration";

// `field` of `object`, null when the object or the field is absent.
Json* fieldOf(Json& object, const Json::json_pointer& field) {
  return object.is_object() && object.contains(field) ? &object[field] : nullptr;
}

// One value on each side (either may be absent): a change stays visible, the values do not.
void maskPair(Json* before, Json* after) {
  if (before && after && *before != *after) {
    *before = kMaskBefore;
    *after = kMaskAfter;
    return;
  }
  if (before) *before = kMask;
  if (after) *after = kMask;
}

// Every value of a map of values (data, stringData), key by key. A field that is not a map
// (never from a server) is masked whole.
void maskMap(Json& live, Json& written, const Json::json_pointer& field) {
  Json* before = fieldOf(live, field);
  Json* after = fieldOf(written, field);
  if ((before && !before->is_object()) || (after && !after->is_object())) {
    return maskPair(before, after);
  }
  if (before) {
    for (auto& [key, value] : before->items()) {
      Json* other = after && after->contains(key) ? &(*after)[key] : nullptr;
      maskPair(&value, other);
    }
  }
  if (after) {
    for (auto& [key, value] : after->items()) {
      if (!before || !before->contains(key)) maskPair(nullptr, &value);
    }
  }
}

bool isSecret(const core::ApiResource& type) {
  // As kubectl diff decides it: by version and kind.
  return type.version == "v1" && type.kind == "Secret";
}

// The object as the diff shows it: without status (the sync controller never writes it) and
// without the metadata the server sets on every write.
std::string printedForDiff(const Json& object) {
  if (object.is_null()) return "";
  Json shown = object;
  shown.erase("status");
  if (auto metadata = shown.find("metadata"); metadata != shown.end() && metadata->is_object()) {
    for (const char* field : {"managedFields", "resourceVersion", "generation", "uid",
                              "creationTimestamp", "selfLink"}) {
      metadata->erase(field);
    }
  }
  return toYaml(OrderedJson::parse(shown.dump()));
}

}  // namespace

void maskSecretValues(Json& live, Json& written) {
  maskMap(live, written, Json::json_pointer("/data"));
  maskMap(live, written, Json::json_pointer("/stringData"));
  const Json::json_pointer last_applied =
      Json::json_pointer("/metadata/annotations") / kLastApplied;
  Json* before = fieldOf(live, last_applied);
  Json* after = fieldOf(written, last_applied);
  if (before || after) maskPair(before, after);
}

std::string memberDiff(const core::ApiResource& target_type, Json live, Json written,
                       const std::string& label) {
  if (isSecret(target_type)) maskSecretValues(live, written);
  return unifiedDiff(printedForDiff(live), printedForDiff(written), label + " (live)",
                     label + " (as the sync controller would write it)");
}

}  // namespace kf::kubefedctl
