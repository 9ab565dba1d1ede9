#include "sync/plan/unstructured_fields.h"

#include <cmath>
#include <limits>

namespace kf::sync {

namespace {

std::string jsonPath(const FieldNames& fields, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += "." + std::string(fields[i]);
  return out;
}

// Go's %v of a decoded JSON value, close enough for messages: scalars bare, the rest as JSON.
std::string goValueText(const Json& value) {
  if (value.is_null()) return "<nil>";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

ApiError accessorError(const FieldNames& fields, std::size_t count, const Json& value,
                       std::string_view expected) {
  return makeError(Reason::kInvalid, jsonPath(fields, count) + " accessor error: " +
                                         goValueText(value) + " is of the type " +
                                         goTypeName(value) + ", expected " + std::string(expected));
}

bool fitsInt64(const Json& value) {
  if (value.is_number_unsigned()) {
    return value.get<std::uint64_t>() <=
           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  }
  return value.is_number_integer();
}

}  // namespace

Json throughGoFloat64(const Json& value) {
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (value.is_number()) {
    const double number = value.get<double>();
    if (std::isfinite(number) && number == std::trunc(number) && number >= -kTwoTo63 &&
        number < kTwoTo63) {
      return static_cast<std::int64_t>(number);
    }
    return number;
  }
  if (!value.is_structured()) return value;
  Json out = value;
  for (auto& element : out) element = throughGoFloat64(element);
  return out;
}

std::string goTypeName(const Json& value) {
  if (value.is_null()) return "<nil>";
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "bool";
  if (value.is_number()) return fitsInt64(value) ? "int64" : "float64";
  if (value.is_array()) return "[]interface {}";
  return "map[string]interface {}";
}

Result<const Json*> nestedValue(const Json& object, const FieldNames& fields) {
  const Json* current = &object;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (current->is_null()) return nullptr;
    if (!current->is_object()) {
      return accessorError(fields, i + 1, *current, "map[string]interface{}");
    }
    auto it = current->find(std::string(fields[i]));
    if (it == current->end()) return nullptr;
    current = &*it;
  }
  return current;
}

Result<std::optional<std::int64_t>> nestedInt64(const Json& object, const FieldNames& fields) {
  KF_TRY(value, nestedValue(object, fields));
  if (value == nullptr) return std::optional<std::int64_t>();
  if (!fitsInt64(*value)) return accessorError(fields, fields.size(), *value, "int64");
  return std::optional<std::int64_t>(value->get<std::int64_t>());
}

Result<std::optional<std::string>> nestedString(const Json& object, const FieldNames& fields) {
  KF_TRY(value, nestedValue(object, fields));
  if (value == nullptr) return std::optional<std::string>();
  if (!value->is_string()) return accessorError(fields, fields.size(), *value, "string");
  return std::optional<std::string>(value->get<std::string>());
}

Result<std::optional<bool>> nestedBool(const Json& object, const FieldNames& fields) {
  KF_TRY(value, nestedValue(object, fields));
  if (value == nullptr) return std::optional<bool>();
  if (!value->is_boolean()) return accessorError(fields, fields.size(), *value, "bool");
  return std::optional<bool>(value->get<bool>());
}

Result<std::optional<Json>> nestedSlice(const Json& object, const FieldNames& fields) {
  KF_TRY(value, nestedValue(object, fields));
  if (value == nullptr) return std::optional<Json>();
  if (!value->is_array()) return accessorError(fields, fields.size(), *value, "[]interface{}");
  return std::optional<Json>(*value);
}

Result<std::optional<std::vector<std::string>>> nestedStringSlice(const Json& object,
                                                                  const FieldNames& fields) {
  KF_TRY(slice, nestedSlice(object, fields));
  if (!slice) return std::optional<std::vector<std::string>>();
  std::vector<std::string> out;
  for (const Json& element : *slice) {
    if (!element.is_string()) {
      return makeError(Reason::kInvalid, jsonPath(fields, fields.size()) +
                                             " accessor error: contains non-string key in the "
                                             "slice: " +
                                             goValueText(element) + " is of the type " +
                                             goTypeName(element) + ", expected string");
    }
    out.push_back(element.get<std::string>());
  }
  return std::optional<std::vector<std::string>>(std::move(out));
}

Status setNestedField(Json& object, Json value, const FieldNames& fields) {
  if (!object.is_object() || fields.empty()) {
    return makeError(Reason::kInvalid,
                     "value cannot be set because the object is not a "
                     "map[string]interface{}");
  }
  Json* current = &object;
  for (std::size_t i = 0; i + 1 < fields.size(); ++i) {
    const std::string key(fields[i]);
    auto it = current->find(key);
    if (it == current->end()) {
      current = &((*current)[key] = Json::object());
    } else if (it->is_object()) {
      current = &*it;
    } else {
      return makeError(Reason::kInvalid, "value cannot be set because " + jsonPath(fields, i + 1) +
                                             " is not a map[string]interface{}");
    }
  }
  (*current)[std::string(fields.back())] = std::move(value);
  return boost::outcome_v2::success();
}

}  // namespace kf::sync
