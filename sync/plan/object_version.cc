#include "sync/plan/object_version.h"

namespace kf::sync {

namespace {

constexpr std::string_view kGenerationPrefix = "gen:";
constexpr std::string_view kResourceVersionPrefix = "rv:";

}  // namespace

std::string objectVersion(const Json& object) {
  const std::int64_t generation = objectGeneration(object);
  if (generation != 0) return std::string(kGenerationPrefix) + std::to_string(generation);
  return std::string(kResourceVersionPrefix) + objectResourceVersion(object);
}

bool objectMetaEquivalent(const Json& a, const Json& b) {
  return objectName(a) == objectName(b) && objectNamespace(a) == objectNamespace(b) &&
         objectLabels(a).value_or(StringMap()) == objectLabels(b).value_or(StringMap()) &&
         objectAnnotations(a).value_or(StringMap()) == objectAnnotations(b).value_or(StringMap());
}

bool objectMetaAndSpecEquivalent(const Json& a, const Json& b) {
  if (!objectMetaEquivalent(a, b)) return false;
  const Json* spec_a = nestedField(a, {"spec"});
  const Json* spec_b = nestedField(b, {"spec"});
  if (spec_a == nullptr || spec_b == nullptr) return spec_a == spec_b;
  return *spec_a == *spec_b;
}

bool objectNeedsUpdate(const Json& desired, const Json& cluster_object,
                       const std::string& recorded_version) {
  const std::string version = objectVersion(cluster_object);
  if (recorded_version != version) return true;
  return version.starts_with(kGenerationPrefix) && !objectMetaEquivalent(desired, cluster_object);
}

}  // namespace kf::sync
