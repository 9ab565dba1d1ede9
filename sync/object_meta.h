#pragma once
// Reading and writing the metadata of unstructured Kubernetes objects the way client-go's
// Unstructured accessors do, because KubeFed's observable decisions depend on their quirks:
//   * a field of the wrong type (or null) reads as absent, never as an error;
//   * labels/annotations read as absent unless they are an object of strings, finalizers unless
//     they are an array of strings;
//   * setters create a missing `metadata`, but silently do nothing when `metadata` exists and is
//     not an object; setting an empty string (or no map / no list) removes the field.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kf::sync {

using Json = nlohmann::json;
using StringMap = std::map<std::string, std::string>;

std::string objectName(const Json& object);
std::string objectNamespace(const Json& object);
std::string objectUid(const Json& object);
std::string objectResourceVersion(const Json& object);
std::int64_t objectGeneration(const Json& object);  // 0 when absent or not an integer
bool hasDeletionTimestamp(const Json& object);      // metadata.deletionTimestamp set (not null)

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

}  // namespace kf::sync
