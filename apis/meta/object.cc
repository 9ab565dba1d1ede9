#include "apis/meta/object.h"

#include <cstdint>

namespace kf {

namespace {

const Json* metadataField(const Json& object, std::string_view key) {
  return nestedField(object, {"metadata", key});
}

std::string metadataString(const Json& object, std::string_view key) {
  const Json* metadata = nestedField(object, {"metadata"});
  return metadata == nullptr ? std::string() : stringIn(*metadata, key);
}

// metadata as a writable object, created when absent; nullptr when it exists with another type
// (client-go's setters fail on that and callers ignore the failure).
Json* writableMetadata(Json& object) {
  if (!object.is_object()) return nullptr;
  auto it = object.find("metadata");
  if (it == object.end()) {
    object["metadata"] = Json::object();
    return &object["metadata"];
  }
  return it->is_object() ? &*it : nullptr;
}

void removeMetadataKey(Json& object, std::string_view key) {
  if (!object.is_object()) return;
  auto it = object.find("metadata");
  if (it != object.end() && it->is_object()) it->erase(std::string(key));
}

std::optional<StringMap> metadataStringMap(const Json& object, std::string_view key) {
  const Json* value = metadataField(object, key);
  if (value == nullptr || !value->is_object()) return std::nullopt;
  StringMap out;
  for (const auto& [name, entry] : value->items()) {
    if (!entry.is_string()) return std::nullopt;
    out.emplace(name, entry.get<std::string>());
  }
  return out;
}

void setMetadataStringMap(Json& object, std::string_view key,
                          const std::optional<StringMap>& value) {
  if (!value) {
    removeMetadataKey(object, key);
    return;
  }
  Json* metadata = writableMetadata(object);
  if (metadata == nullptr) return;
  Json map = Json::object();
  for (const auto& [name, entry] : *value) map[name] = entry;
  (*metadata)[std::string(key)] = std::move(map);
}

}  // namespace

const Json* nestedField(const Json& object, std::initializer_list<std::string_view> path) {
  const Json* current = &object;
  for (std::string_view step : path) {
    if (!current->is_object()) return nullptr;
    auto it = current->find(std::string(step));
    if (it == current->end()) return nullptr;
    current = &*it;
  }
  return current;
}

std::string objectName(const Json& object) { return metadataString(object, "name"); }
std::string objectNamespace(const Json& object) { return metadataString(object, "namespace"); }
std::string objectUid(const Json& object) { return metadataString(object, "uid"); }
std::string objectResourceVersion(const Json& object) {
  return metadataString(object, "resourceVersion");
}

std::string objectKey(const Json& object) {
  std::string ns = objectNamespace(object);
  return ns.empty() ? objectName(object) : ns + "/" + objectName(object);
}

std::int64_t objectGeneration(const Json& object) {
  const Json* metadata = nestedField(object, {"metadata"});
  return metadata == nullptr ? 0 : int64In(*metadata, "generation");
}

std::string stringIn(const Json& map, std::string_view key) {
  const Json* value = nestedField(map, {key});
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

std::int64_t int64In(const Json& map, std::string_view key) {
  const Json* value = nestedField(map, {key});
  if (value == nullptr || !value->is_number_integer()) return 0;
  // Beyond int64 Go decodes a float64, which its int64 accessor rejects.
  if (value->is_number_unsigned() &&
      value->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
    return 0;
  }
  return value->get<std::int64_t>();
}

bool hasDeletionTimestamp(const Json& object) {
  const Json* value = metadataField(object, "deletionTimestamp");
  return value != nullptr && !value->is_null();
}

std::optional<StringMap> objectLabels(const Json& object) {
  return metadataStringMap(object, "labels");
}

std::optional<StringMap> objectAnnotations(const Json& object) {
  return metadataStringMap(object, "annotations");
}

std::optional<std::vector<std::string>> objectFinalizers(const Json& object) {
  const Json* value = metadataField(object, "finalizers");
  if (value == nullptr || !value->is_array()) return std::nullopt;
  std::vector<std::string> out;
  for (const Json& entry : *value) {
    if (!entry.is_string()) return std::nullopt;
    out.push_back(entry.get<std::string>());
  }
  return out;
}

std::optional<std::string> labelValue(const Json& object, std::string_view key) {
  auto labels = objectLabels(object);
  if (!labels) return std::nullopt;
  auto it = labels->find(std::string(key));
  if (it == labels->end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> annotationValue(const Json& object, std::string_view key) {
  auto annotations = objectAnnotations(object);
  if (!annotations) return std::nullopt;
  auto it = annotations->find(std::string(key));
  if (it == annotations->end()) return std::nullopt;
  return it->second;
}

void setMetadataString(Json& object, std::string_view key, const std::string& value) {
  if (value.empty()) {
    removeMetadataKey(object, key);
    return;
  }
  if (Json* metadata = writableMetadata(object)) (*metadata)[std::string(key)] = value;
}

void setLabels(Json& object, const std::optional<StringMap>& labels) {
  setMetadataStringMap(object, "labels", labels);
}

void setAnnotations(Json& object, const std::optional<StringMap>& annotations) {
  setMetadataStringMap(object, "annotations", annotations);
}

void setFinalizers(Json& object, const std::optional<std::vector<std::string>>& finalizers) {
  if (!finalizers) {
    removeMetadataKey(object, "finalizers");
    return;
  }
  if (Json* metadata = writableMetadata(object)) (*metadata)["finalizers"] = *finalizers;
}

}  // namespace kf
