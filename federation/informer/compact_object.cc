#include "federation/informer/compact_object.h"

namespace kf {

namespace {

constexpr char kManagedFields[] = "managedFields";

// Strings the API server sent are valid UTF-8; anything else is replaced rather than thrown on.
std::string dumpValue(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void appendMember(std::string& out, const std::string& key, const std::string& value_text) {
  if (out.size() > 1) out += ',';
  out += dumpValue(Json(key));
  out += ':';
  out += value_text;
}

std::string metadataText(const Json& metadata) {
  std::string out = "{";
  for (const auto& [field, value] : metadata.items()) {
    if (field != kManagedFields) appendMember(out, field, dumpValue(value));
  }
  return out + '}';
}

}  // namespace

std::string compactText(const Json& object) {
  std::string out;
  const auto metadata = object.find("metadata");
  if (!object.is_object() || metadata == object.end() || !metadata->is_object() ||
      !metadata->contains(kManagedFields)) {
    out = dumpValue(object);
  } else {
    // Member by member, so that the object is not copied to drop one field.
    out = "{";
    for (const auto& [key, value] : object.items()) {
      appendMember(out, key, key == "metadata" ? metadataText(value) : dumpValue(value));
    }
    out += '}';
  }
  // Appending grew the capacity in steps; the store keeps the text for the object's lifetime.
  out.shrink_to_fit();
  return out;
}

ObjectPtr fromCompactText(std::string_view text) { return makeObject(Json::parse(text)); }

}  // namespace kf
