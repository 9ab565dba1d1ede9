#include "apis/meta/json_reader.h"

#include <limits>

namespace kf::meta {
namespace {

bool isZero(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return true;
    case Json::value_t::string:
      return value.get_ref<const std::string&>().empty();
    case Json::value_t::boolean:
      return !value.get<bool>();
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return value == 0;
    case Json::value_t::array:
    case Json::value_t::object:
      return value.empty();
    default:
      return false;
  }
}

}  // namespace

ApiError decodeError(const FieldPath& path, std::string_view what) {
  std::string message = path.empty() ? std::string(what) : path.str() + ": " + std::string(what);
  return makeError(Reason::kBadRequest, std::move(message));
}

Result<std::string> readString(const Json& value, const FieldPath& path) {
  if (!value.is_string()) return decodeError(path, "expected string");
  return value.get<std::string>();
}

Result<std::int64_t> readInt64(const Json& value, const FieldPath& path) {
  if (value.is_number_unsigned()) {
    if (value.get<std::uint64_t>() >
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return decodeError(path, "integer out of range");
    }
    return static_cast<std::int64_t>(value.get<std::uint64_t>());
  }
  if (!value.is_number_integer()) return decodeError(path, "expected integer");
  return value.get<std::int64_t>();
}

Result<std::vector<std::string>> readStringArray(const Json& value, const FieldPath& path) {
  return readArray<std::string>(value, path, readString);
}

Result<ObjectReader> ObjectReader::open(const Json& value, FieldPath path) {
  if (!value.is_object()) return decodeError(path, "expected object");
  return ObjectReader(value, std::move(path));
}

const Json* ObjectReader::find(std::string_view key) const {
  auto it = object_->find(key);
  if (it == object_->end() || it->is_null()) return nullptr;
  return &*it;
}

const Json* ObjectReader::plainValue(std::string_view key) {
  const Json* value = find(key);
  if (value != nullptr && !isZero(*value)) consume(key);
  return value;
}

const Json* ObjectReader::optValue(std::string_view key) {
  const Json* value = find(key);
  if (value != nullptr) consume(key);
  return value;
}

Result<std::string> ObjectReader::string(std::string_view key) {
  const Json* value = plainValue(key);
  if (value == nullptr) return std::string();
  return readString(*value, path(key));
}

Result<std::int64_t> ObjectReader::int64(std::string_view key) {
  const Json* value = plainValue(key);
  if (value == nullptr) return std::int64_t{0};
  return readInt64(*value, path(key));
}

Result<std::int32_t> ObjectReader::int32(std::string_view key) {
  KF_TRY(wide, int64(key));
  if (wide < std::numeric_limits<std::int32_t>::min() ||
      wide > std::numeric_limits<std::int32_t>::max()) {
    return decodeError(path(key), "integer out of range");
  }
  return static_cast<std::int32_t>(wide);
}

Result<bool> ObjectReader::boolean(std::string_view key) {
  const Json* value = plainValue(key);
  if (value == nullptr) return false;
  if (!value->is_boolean()) return decodeError(path(key), "expected boolean");
  return value->get<bool>();
}

Result<std::optional<std::string>> ObjectReader::optString(std::string_view key) {
  const Json* value = optValue(key);
  if (value == nullptr) return std::optional<std::string>();
  KF_TRY(text, readString(*value, path(key)));
  return std::optional<std::string>(std::move(text));
}

Result<std::optional<std::int64_t>> ObjectReader::optInt64(std::string_view key) {
  const Json* value = optValue(key);
  if (value == nullptr) return std::optional<std::int64_t>();
  KF_TRY(number, readInt64(*value, path(key)));
  return std::optional<std::int64_t>(number);
}

Json ObjectReader::rest() const {
  Json out = Json::object();
  for (const auto& [key, value] : object_->items()) {
    if (!consumed_.contains(key)) out[key] = value;
  }
  return out;
}

}  // namespace kf::meta
