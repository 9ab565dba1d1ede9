#pragma once
// Kubernetes objects as this project holds them: unstructured JSON, handed out immutable and
// shared by the caches. The accessors read and write metadata the way client-go's Unstructured
// accessors do, because KubeFed's observable decisions depend on their quirks:
//   * a field of the wrong type (or null) reads as absent, never as an error;
//   * labels/annotations read as absent unless they are an object of strings, finalizers unless
//     they are an array of strings;
//   * setters create a missing `metadata`, but silently do nothing when `metadata` exists and is
//     not an object; setting an empty string (or no map / no list) removes the field.
// These are the only metadata accessors of the project: every layer uses them.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kf {

using Json = nlohmann::json;
using ObjectPtr = std::shared_ptr<const Json>;
using StringMap = std::map<std::string, std::string>;

// Wraps a freshly decoded object so it can be shared and never modified again.
inline ObjectPtr makeObject(Json object) { return std::make_shared<const Json>(std::move(object)); }

// A resource of the API, as discovery describes it: enough to build its URL.
struct GroupVersionResource {
  std::string group;  // "" for the core group
  std::string version;
  std::string resource;  // plural, lower case: "configmaps"
  bool namespaced = true;

  std::string apiVersion() const { return group.empty() ? version : group + "/" + version; }
  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads a defaulted <=>
  auto operator<=>(const GroupVersionResource&) const = default;
};

std::string objectName(const Json& object);
std::string objectNamespace(const Json& object);
std::string objectUid(const Json& object);
std::string objectResourceVersion(const Json& object);
std::int64_t objectGeneration(const Json& object);  // 0 when absent or not an integer
bool hasDeletionTimestamp(const Json& object);      // metadata.deletionTimestamp set (not null)
// "namespace/name", or "name" for cluster-scoped objects: the key of caches and work queues.
std::string objectKey(const Json& object);

std::optional<StringMap> objectLabels(const Json& object);
std::optional<StringMap> objectAnnotations(const Json& object);
std::optional<std::vector<std::string>> objectFinalizers(const Json& object);

// The value of one label / annotation, or nullopt when the map or the key is absent.
std::optional<std::string> labelValue(const Json& object, std::string_view key);
std::optional<std::string> annotationValue(const Json& object, std::string_view key);

// metadata.<key> = value; an empty value removes the key.
void setMetadataString(Json& object, std::string_view key, const std::string& value);
// nullopt removes the field; an empty map / list is written as {} / [].
void setLabels(Json& object, const std::optional<StringMap>& labels);
void setAnnotations(Json& object, const std::optional<StringMap>& annotations);
void setFinalizers(Json& object, const std::optional<std::vector<std::string>>& finalizers);

// The object at `path` below `object` (each step an object key), or nullptr when a step is
// missing or not an object. A null value at the end is returned as is.
const Json* nestedField(const Json& object, std::initializer_list<std::string_view> path);

// Reads of one map (e.g. an ObjectMeta held on its own) with the same rules: a string, or ""
// when absent or of another type; an int64, or 0.
std::string stringIn(const Json& map, std::string_view key);
std::int64_t int64In(const Json& map, std::string_view key);

}  // namespace kf
