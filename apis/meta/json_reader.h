#pragma once
// Reading typed API objects out of JSON with Go encoding/json semantics, and keeping every key
// we do not model so that fromJson(x).toJson() == x.
//
// Rule for what survives untouched in rest(): keys never read, keys whose value is null, and
// keys of plain (Go non-pointer) fields holding their zero value ("", 0, false, [], {}). A Go
// omitempty field drops zero values on output, so leaving them in rest() is what makes
// `"group": ""` round-trip; a non-omitempty field is always written and overwrites its copy.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/api_error.h"
#include "apis/meta/field_errors.h"

namespace kf {
using Json = nlohmann::json;
}  // namespace kf

namespace kf::meta {

// A BadRequest error "<path>: <what>", e.g. "spec.placement.clusters[1].name: expected string".
ApiError decodeError(const FieldPath& path, std::string_view what);

class ObjectReader {
 public:
  // Fails unless `value` is a JSON object.
  static Result<ObjectReader> open(const Json& value, FieldPath path);

  const FieldPath& path() const { return path_; }
  FieldPath path(std::string_view key) const { return path_.child(key); }

  // Plain fields: absent or null read as the zero value.
  Result<std::string> string(std::string_view key);
  Result<std::int64_t> int64(std::string_view key);
  Result<std::int32_t> int32(std::string_view key);
  Result<bool> boolean(std::string_view key);
  // Plain struct / slice / map field: the value, or nullptr when absent or null.
  const Json* plainValue(std::string_view key);

  // Pointer fields: absent or null read as nullopt / nullptr.
  Result<std::optional<std::string>> optString(std::string_view key);
  Result<std::optional<std::int64_t>> optInt64(std::string_view key);
  const Json* optValue(std::string_view key);

  // The object without the keys consumed so far.
  Json rest() const;

 private:
  ObjectReader(const Json& object, FieldPath path) : object_(&object), path_(std::move(path)) {}
  const Json* find(std::string_view key) const;
  void consume(std::string_view key) { consumed_.emplace(key); }

  const Json* object_;
  FieldPath path_;
  std::set<std::string, std::less<>> consumed_;
};

// Scalar readers for array elements and map values.
Result<std::string> readString(const Json& value, const FieldPath& path);
Result<std::int64_t> readInt64(const Json& value, const FieldPath& path);

// Reads each element of a JSON array with `read(element, path[i])`.
template <class T, class ReadFn>
Result<std::vector<T>> readArray(const Json& value, const FieldPath& path, ReadFn&& read) {
  if (!value.is_array()) return decodeError(path, "expected array");
  std::vector<T> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto element = read(value[i], path.index(i));
    if (!element) return std::move(element).error();
    out.push_back(std::move(element).value());
  }
  return out;
}

Result<std::vector<std::string>> readStringArray(const Json& value, const FieldPath& path);

// Writers for omitempty fields.
inline void putIfNotEmpty(Json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}
inline void putIfNonZero(Json& out, const char* key, std::int64_t value) {
  if (value != 0) out[key] = value;
}
inline void putIfTrue(Json& out, const char* key, bool value) {
  if (value) out[key] = true;
}
template <class T>
void putIfSet(Json& out, const char* key, const std::optional<T>& value) {
  if (value) out[key] = *value;
}
// The base of an object's JSON: its unknown keys, or an empty object.
inline Json baseObject(const Json& extra) { return extra.is_object() ? extra : Json::object(); }

}  // namespace kf::meta
