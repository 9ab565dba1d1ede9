#include "federation/informer/compact_object.h"

namespace kf {

namespace {

constexpr char kManagedFields[] = "managedFields";

// Appends `value` as compact JSON, as Json::dump() writes it but into `out` (dump() would return
// a string of its own per value). Strings the API server sent are valid UTF-8; anything else is
// replaced rather than thrown on.
void appendJson(std::string& out, const Json& value) {
  nlohmann::detail::serializer<Json> serializer(
      nlohmann::detail::output_adapter<char, std::string>(out), ' ',
      Json::error_handler_t::replace);
  serializer.dump(value, /*pretty_print=*/false, /*ensure_ascii=*/false, 0);
}

// Appends `"key":` after a comma unless it is the first member of its object.
void appendKey(std::string& out, bool& first, const std::string& key) {
  if (!first) out += ',';
  first = false;
  appendJson(out, Json(key));
  out += ':';
}

void appendWithoutManagedFields(std::string& out, const Json& object) {
  out += '{';
  bool first = true;
  for (const auto& [key, value] : object.items()) {
    appendKey(out, first, key);
    if (key != "metadata") {
      appendJson(out, value);
      continue;
    }
    out += '{';
    bool first_field = true;
    for (const auto& [field, field_value] : value.items()) {
      if (field == kManagedFields) continue;
      appendKey(out, first_field, field);
      appendJson(out, field_value);
    }
    out += '}';
  }
  out += '}';
}

}  // namespace

std::string compactText(const Json& object) {
  std::string text;
  appendCompactText(text, object);
  text.shrink_to_fit();  // appending grew the capacity in steps; the store keeps the text
  return text;
}

void appendCompactText(std::string& out, const Json& object) {
  const auto metadata = object.find("metadata");
  if (!object.is_object() || metadata == object.end() || !metadata->is_object() ||
      !metadata->contains(kManagedFields)) {
    appendJson(out, object);
  } else {
    appendWithoutManagedFields(out, object);  // member by member: the object is not copied
  }
}

ObjectPtr fromCompactText(std::string_view text) { return makeObject(Json::parse(text)); }

}  // namespace kf
