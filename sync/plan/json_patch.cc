#include "sync/plan/json_patch.h"

#include <cstdint>
#include <limits>
#include <string_view>

#include "apis/meta/field_errors.h"

namespace kf::sync {

namespace {

// The library wraps sentinel errors; their texts end its messages.
constexpr std::string_view kMissingValue = ": missing value";
constexpr std::string_view kInvalidIndex = ": invalid index referenced";
constexpr std::string_view kTestFailed = ": test failed";

ApiError patchError(std::string message) { return makeError(Reason::kInvalid, std::move(message)); }

ApiError wrapped(const std::string& context, const ApiError& cause) {
  return patchError(context + ": " + cause.message);
}

// RFC 6901 unescaping: "~1" is "/", then "~0" is "~" (so "~01" is "~1").
std::string decodeSegment(std::string_view segment) {
  std::string out;
  for (std::size_t i = 0; i < segment.size(); ++i) {
    if (segment[i] == '~' && i + 1 < segment.size() &&
        (segment[i + 1] == '0' || segment[i + 1] == '1')) {
      out += segment[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += segment[i];
    }
  }
  return out;
}

std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    const auto slash = path.find('/', start);
    segments.push_back(path.substr(start, slash - start));
    if (slash == std::string::npos) return segments;
    start = slash + 1;
  }
}

// Go's strconv.Atoi for a 64-bit int: optional sign, decimal digits, nothing else.
Result<std::int64_t> parseIndex(const std::string& text) {
  const std::string prefix = "strconv.Atoi: parsing " + meta::goQuote(text) + ": ";
  std::size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) i = 1;
  if (i == text.size()) return patchError(prefix + "invalid syntax");
  std::uint64_t magnitude = 0;
  const std::uint64_t limit =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return patchError(prefix + "invalid syntax");
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    // Go reports the overflow at once, even if an invalid character follows.
    if (magnitude > (limit - digit) / 10) return patchError(prefix + "value out of range");
    magnitude = magnitude * 10 + digit;
  }
  if (negative) return static_cast<std::int64_t>(0 - magnitude);
  return static_cast<std::int64_t>(magnitude);
}

ApiError invalidIndex(std::int64_t index) {
  return patchError("Unable to access invalid index: " + std::to_string(index) +
                    std::string(kInvalidIndex));
}

std::int64_t sizeOf(const Json& array) { return static_cast<std::int64_t>(array.size()); }

// An existing element's position; negative indices count from the end.
Result<std::size_t> existingIndex(const Json& array, const std::string& key) {
  KF_TRY(index, parseIndex(key));
  const std::int64_t size = sizeOf(array);
  if (index < 0) {
    if (index < -size) return invalidIndex(index);
    index += size;
  }
  if (index >= size) return invalidIndex(index);
  return static_cast<std::size_t>(index);
}

// The container an operation acts on and the (decoded) key within it.
struct Location {
  Json* container;
  std::string key;
};

// The child `key` of `container`; nullptr when missing, null or an invalid index.
Json* childOf(Json& container, const std::string& key) {
  if (container.is_object()) {
    auto it = container.find(key);
    return it == container.end() || it->is_null() ? nullptr : &*it;
  }
  if (!container.is_array()) return nullptr;
  auto index = existingIndex(container, key);
  if (!index) return nullptr;
  Json& element = container[index.value()];
  return element.is_null() ? nullptr : &element;
}

std::optional<Location> findContainer(Json& document, const std::string& path) {
  const auto segments = splitPath(path);
  if (segments.size() < 2) return std::nullopt;
  Json* current = &document;
  for (std::size_t i = 1; i + 1 < segments.size(); ++i) {
    current = childOf(*current, decodeSegment(segments[i]));
    if (current == nullptr || !(current->is_object() || current->is_array())) return std::nullopt;
  }
  return Location{current, decodeSegment(segments.back())};
}

// The value at `location`: nullptr for a missing object key or a null value (no error).
Result<const Json*> getAt(const Location& location) {
  Json& container = *location.container;
  if (container.is_object()) {
    auto it = container.find(location.key);
    return it == container.end() || it->is_null() ? nullptr : &*it;
  }
  KF_TRY(index, existingIndex(container, location.key));
  const Json& element = container[index];
  return element.is_null() ? nullptr : &element;
}

Status addAt(const Location& location, Json value) {
  Json& container = *location.container;
  if (container.is_object()) {
    container[location.key] = std::move(value);
    return boost::outcome_v2::success();
  }
  if (location.key == "-") {
    container.push_back(std::move(value));
    return boost::outcome_v2::success();
  }
  auto parsed = parseIndex(location.key);
  if (!parsed) {
    return wrapped("value was not a proper array index: '" + location.key + "'", parsed.error());
  }
  std::int64_t index = parsed.value();
  const std::int64_t grown_size = sizeOf(container) + 1;
  if (index >= grown_size || index < -grown_size) return invalidIndex(index);
  if (index < 0) index += grown_size;
  container.insert(container.begin() + index, std::move(value));
  return boost::outcome_v2::success();
}

Status removeAt(const Location& location) {
  Json& container = *location.container;
  if (container.is_object()) {
    if (container.erase(location.key) == 0) {
      return patchError("Unable to remove nonexistent key: " + location.key +
                        std::string(kMissingValue));
    }
    return boost::outcome_v2::success();
  }
  KF_TRY(index, existingIndex(container, location.key));
  container.erase(index);
  return boost::outcome_v2::success();
}

Json valueOf(const JsonPatchOperation& operation) {
  return operation.value ? *operation.value : Json(nullptr);
}

Status applyAdd(Json& document, const JsonPatchOperation& operation) {
  auto location = findContainer(document, operation.path);
  if (!location) {
    return patchError("add operation does not apply: doc is missing path: \"" + operation.path +
                      "\"" + std::string(kMissingValue));
  }
  auto added = addAt(*location, valueOf(operation));
  if (!added) return wrapped("error in add for path: '" + operation.path + "'", added.error());
  return boost::outcome_v2::success();
}

Status applyRemove(Json& document, const JsonPatchOperation& operation) {
  auto location = findContainer(document, operation.path);
  if (!location) {
    return patchError("remove operation does not apply: doc is missing path: \"" + operation.path +
                      "\"" + std::string(kMissingValue));
  }
  auto removed = removeAt(*location);
  if (!removed) {
    return wrapped("error in remove for path: '" + operation.path + "'", removed.error());
  }
  return boost::outcome_v2::success();
}

Status applyReplace(Json& document, const JsonPatchOperation& operation) {
  auto location = findContainer(document, operation.path);
  if (!location) {
    return patchError("replace operation does not apply: doc is missing path: " + operation.path +
                      std::string(kMissingValue));
  }
  Json& container = *location->container;
  if (container.is_object()) {
    // Quirk kept on purpose: a missing key is created, as in json-patch v4.
    container[location->key] = valueOf(operation);
    return boost::outcome_v2::success();
  }
  auto index = existingIndex(container, location->key);
  if (!index) {
    return patchError("replace operation does not apply: doc is missing key: " + operation.path +
                      std::string(kMissingValue));
  }
  container[index.value()] = valueOf(operation);
  return boost::outcome_v2::success();
}

Result<std::string> fromOf(const JsonPatchOperation& operation) {
  if (!operation.from) {
    return patchError(operation.op + " operation failed to decode from: operation, missing from " +
                      "field" + std::string(kMissingValue));
  }
  return *operation.from;
}

// The value at `from` (null for a missing key) for move and copy.
Result<Json> valueAtFrom(Json& document, const std::string& op, const std::string& from,
                         std::optional<Location>& location) {
  location = findContainer(document, from);
  if (!location) {
    return patchError(op + " operation does not apply: doc is missing from path: " + from +
                      std::string(kMissingValue));
  }
  auto value = getAt(*location);
  if (!value) {
    const std::string context = op == "move" ? "error in move for path: '" + location->key + "'"
                                             : "error in copy for from: '" + from + "'";
    return wrapped(context, value.error());
  }
  return value.value() == nullptr ? Json(nullptr) : *value.value();
}

Status applyMove(Json& document, const JsonPatchOperation& operation) {
  KF_TRY(from, fromOf(operation));
  std::optional<Location> source;
  KF_TRY(value, valueAtFrom(document, "move", from, source));
  auto removed = removeAt(*source);
  if (!removed) return wrapped("error in move for path: '" + source->key + "'", removed.error());
  auto destination = findContainer(document, operation.path);
  if (!destination) {
    return patchError("move operation does not apply: doc is missing destination path: " +
                      operation.path + std::string(kMissingValue));
  }
  auto added = addAt(*destination, std::move(value));
  if (!added) return wrapped("error in move for path: '" + operation.path + "'", added.error());
  return boost::outcome_v2::success();
}

Status applyCopy(Json& document, const JsonPatchOperation& operation) {
  KF_TRY(from, fromOf(operation));
  std::optional<Location> source;
  KF_TRY(value, valueAtFrom(document, "copy", from, source));
  auto destination = findContainer(document, operation.path);
  if (!destination) {
    return patchError("copy operation does not apply: doc is missing destination path: " +
                      operation.path + std::string(kMissingValue));
  }
  auto added = addAt(*destination, std::move(value));
  if (!added) return wrapped("error while adding value during copy", added.error());
  return boost::outcome_v2::success();
}

bool sameScalar(const Json& a, const Json& b) {
  if (a.is_number_integer() && b.is_number_integer()) return a == b;
  return a.type() == b.type() && a == b;
}

// json-patch's structural equality as `test` uses it: one-sided for objects.
bool testEqual(const Json& document_value, const Json& value) {
  if (document_value.is_object()) {
    if (!value.is_object()) return false;
    for (const auto& [key, entry] : document_value.items()) {
      auto it = value.find(key);
      if (it == value.end()) return false;
      if (entry.is_null() && it->is_null()) continue;
      if (entry.is_null() || it->is_null() || !testEqual(entry, *it)) return false;
    }
    return true;
  }
  if (document_value.is_array()) {
    if (!value.is_array() || value.size() != document_value.size()) return false;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const bool both_null = document_value[i].is_null() && value[i].is_null();
      if (!both_null && !testEqual(document_value[i], value[i])) return false;
    }
    return true;
  }
  return sameScalar(document_value, value);
}

Status applyTest(Json& document, const JsonPatchOperation& operation) {
  auto location = findContainer(document, operation.path);
  if (!location) {
    return patchError("test operation does not apply: is missing path: " + operation.path +
                      std::string(kMissingValue));
  }
  auto current = getAt(*location);
  if (!current) {
    return wrapped("error in test for path: '" + operation.path + "'", current.error());
  }
  const bool value_null = !operation.value || operation.value->is_null();
  const bool passed = current.value() == nullptr
                          ? value_null
                          : !value_null && testEqual(*current.value(), *operation.value);
  if (passed) return boost::outcome_v2::success();
  return patchError("testing value " + operation.path + " failed" + std::string(kTestFailed));
}

Result<JsonPatchOperation> parseOperation(const Json& json, const meta::FieldPath& path) {
  KF_TRY(reader, meta::ObjectReader::open(json, path));
  JsonPatchOperation out;
  KF_TRY(op, reader.string("op"));
  KF_TRY(patch_path, reader.string("path"));
  KF_TRY(from, reader.optString("from"));
  out.op = std::move(op);
  out.path = std::move(patch_path);
  out.from = std::move(from);
  if (json.contains("value")) out.value = json.at("value");
  return out;
}

}  // namespace

Status applyJsonPatchOperation(Json& document, const JsonPatchOperation& operation) {
  if (operation.op == "add") return applyAdd(document, operation);
  if (operation.op == "remove") return applyRemove(document, operation);
  if (operation.op == "replace") return applyReplace(document, operation);
  if (operation.op == "move") return applyMove(document, operation);
  if (operation.op == "copy") return applyCopy(document, operation);
  if (operation.op == "test") return applyTest(document, operation);
  return patchError("Unexpected kind: " + operation.op);
}

Status applyJsonPatch(Json& document, const std::vector<JsonPatchOperation>& operations) {
  Json patched = document;
  for (std::size_t i = 0; i < operations.size(); ++i) {
    const auto& operation = operations[i];
    auto applied = applyJsonPatchOperation(patched, operation);
    if (!applied) {
      return wrapped(
          "operation[" + std::to_string(i) + "] (" + operation.op + " " + operation.path + ")",
          applied.error());
    }
  }
  document = std::move(patched);
  return boost::outcome_v2::success();
}

Result<std::vector<JsonPatchOperation>> parseJsonPatch(const Json& patch) {
  return meta::readArray<JsonPatchOperation>(patch, meta::FieldPath("patch"), parseOperation);
}

}  // namespace kf::sync
