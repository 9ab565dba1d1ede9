#include "sync/plan/field_diff.h"

#include <algorithm>
#include <cstdlib>

namespace kf::sync {
namespace {

// RFC 6901: "~" and "/" in a key are written "~0" and "~1".
std::string escapedSegment(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> segmentsOf(std::string_view pointer) {
  std::vector<std::string> segments;
  if (pointer.empty() || pointer.front() != '/') return segments;
  std::string current;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      segments.push_back(current);
      current.clear();
    } else if (pointer[i] == '~' && i + 1 < pointer.size() && pointer[i + 1] == '0') {
      current += '~';
      ++i;
    } else if (pointer[i] == '~' && i + 1 < pointer.size() && pointer[i + 1] == '1') {
      current += '/';
      ++i;
    } else {
      current += pointer[i];
    }
  }
  return segments;
}

bool isUnder(const std::string& path, const std::vector<std::string>& ignored) {
  return std::any_of(ignored.begin(), ignored.end(), [&](const std::string& prefix) {
    return path == prefix ||
           (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
            path[prefix.size()] == '/');
  });
}

// 3 and 3.0 are the same number (a member's API server may write either back); integers compare
// exactly, whatever their size.
bool sameValue(const Json& a, const Json& b) {
  if (a.is_number_integer() && b.is_number_integer()) return a == b;
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  return a == b;
}

class Differ {
 public:
  explicit Differ(const std::vector<std::string>& ignored) : ignored_(ignored) {}

  void compare(const Json& desired, const Json* live, const std::string& path) {
    if (isUnder(path, ignored_)) return;
    if (desired.is_object() && live != nullptr && live->is_object()) {
      for (const auto& [key, value] : desired.items()) {
        const auto found = live->find(key);
        compare(value, found == live->end() ? nullptr : &*found, path + "/" + escapedSegment(key));
      }
      return;
    }
    if (desired.is_object() && !desired.empty() && live == nullptr) {
      // Each field the template sets is reported, not the object that holds them.
      for (const auto& [key, value] : desired.items()) {
        compare(value, nullptr, path + "/" + escapedSegment(key));
      }
      return;
    }
    if (desired.is_array() && live != nullptr && live->is_array() &&
        desired.size() == live->size()) {
      for (std::size_t i = 0; i < desired.size(); ++i) {
        compare(desired[i], &(*live)[i], path + "/" + std::to_string(i));
      }
      return;
    }
    if (live != nullptr && sameValue(desired, *live)) return;
    differences_.push_back(FieldDifference{
        path, desired, live == nullptr ? std::nullopt : std::optional<Json>(*live)});
  }

  std::vector<FieldDifference> take() { return std::move(differences_); }

 private:
  const std::vector<std::string>& ignored_;
  std::vector<FieldDifference> differences_;
};

// The metadata users set and look at; the rest is the API server's (uid, resourceVersion,
// generation, creationTimestamp, managedFields, ownerReferences...).
constexpr std::string_view kComparedMetadata[] = {"labels", "annotations"};

// fieldsV1 (structured-merge-diff's set of paths): "f:<key>" for an object member, and for a
// list element "k:<json of its key fields>", "v:<json value>" or "i:<index>". Whether `entry`
// names the element `element` at `index`.
bool namesElement(const std::string& entry, const Json& element, std::size_t index) {
  if (entry.rfind("i:", 0) == 0) return entry.substr(2) == std::to_string(index);
  if (entry.rfind("v:", 0) == 0) {
    const Json value = Json::parse(entry.substr(2), nullptr, false);
    return !value.is_discarded() && value == element;
  }
  if (entry.rfind("k:", 0) == 0 && element.is_object()) {
    const Json keys = Json::parse(entry.substr(2), nullptr, false);
    if (keys.is_discarded() || !keys.is_object()) return false;
    return std::all_of(keys.items().begin(), keys.items().end(), [&](const auto& key) {
      const auto found = element.find(key.key());
      return found != element.end() && *found == key.value();
    });
  }
  return false;
}

// Whether `fields` (a fieldsV1 tree) holds `segments`, walked over `object` for list elements.
bool ownsPath(const Json& fields, const Json* object, const std::vector<std::string>& segments,
              std::size_t at) {
  if (at == segments.size()) return true;
  if (!fields.is_object()) return false;
  const std::string& segment = segments[at];
  if (object != nullptr && object->is_array()) {
    const std::size_t index = std::strtoul(segment.c_str(), nullptr, 10);
    if (index >= object->size()) return false;
    const Json& element = (*object)[index];
    for (const auto& [entry, below] : fields.items()) {
      if (namesElement(entry, element, index) && ownsPath(below, &element, segments, at + 1)) {
        return true;
      }
    }
    return false;
  }
  const auto below = fields.find("f:" + segment);
  if (below == fields.end()) return false;
  const Json* next = nullptr;
  if (object != nullptr && object->is_object()) {
    const auto found = object->find(segment);
    if (found != object->end()) next = &*found;
  }
  return ownsPath(*below, next, segments, at + 1);
}

}  // namespace

std::vector<FieldDifference> differingFields(const Json& desired, const Json& live,
                                             const std::vector<std::string>& ignored) {
  Differ differ(ignored);
  if (!desired.is_object()) return {};
  for (const auto& [key, value] : desired.items()) {
    if (key == "status" || key == "apiVersion" || key == "kind") continue;
    const auto found = live.is_object() ? live.find(key) : live.end();
    const Json* live_value = live.is_object() && found != live.end() ? &*found : nullptr;
    if (key != "metadata") {
      differ.compare(value, live_value, "/" + escapedSegment(key));
      continue;
    }
    for (std::string_view field : kComparedMetadata) {
      const auto desired_field = value.find(std::string(field));
      if (desired_field == value.end()) continue;
      const Json* live_field = nullptr;
      if (live_value != nullptr && live_value->is_object()) {
        const auto it = live_value->find(std::string(field));
        if (it != live_value->end()) live_field = &*it;
      }
      differ.compare(*desired_field, live_field, "/metadata/" + std::string(field));
    }
  }
  return differ.take();
}

namespace {

const Json* managedFieldsOf(const Json& live) {
  if (const auto metadata = live.find("metadata");
      metadata != live.end() && metadata->is_object()) {
    if (const auto managed = metadata->find("managedFields");
        managed != metadata->end() && managed->is_array()) {
      return &*managed;
    }
  }
  return nullptr;
}

bool entryOwns(const Json& entry, const Json& live, const std::vector<std::string>& segments) {
  const auto fields = entry.find("fieldsV1");
  return fields != entry.end() && ownsPath(*fields, &live, segments, 0);
}

}  // namespace

std::string lastWriterOf(const Json& live, std::string_view path, std::string_view except) {
  return lastWriteOf(live, path, except).manager;
}

FieldWrite lastWriteOf(const Json& live, std::string_view path, std::string_view except) {
  const Json* entries = managedFieldsOf(live);
  if (entries == nullptr) return {};
  const std::vector<std::string> segments = segmentsOf(path);
  std::string writer;
  std::string newest;
  for (const Json& entry : *entries) {
    if (!entry.is_object()) continue;
    const std::string manager = entry.value("manager", "");
    if (manager.empty() || manager == except || !entryOwns(entry, live, segments)) continue;
    const std::string time = entry.value("time", "");
    // RFC 3339 times in UTC compare as text; the later entry wins a tie.
    if (writer.empty() || time >= newest) {
      writer = manager;
      newest = time;
    }
  }
  return {writer, writer.empty() ? "" : newest};
}

std::vector<std::string> ownersOf(const Json& live, std::string_view path) {
  std::vector<std::string> owners;
  const Json* entries = managedFieldsOf(live);
  if (entries == nullptr) return owners;
  const std::vector<std::string> segments = segmentsOf(path);
  for (const Json& entry : *entries) {
    if (!entry.is_object()) continue;
    const std::string manager = entry.value("manager", "");
    if (!manager.empty() && entryOwns(entry, live, segments)) owners.push_back(manager);
  }
  return owners;
}

Result<std::vector<std::string>> parsePointerList(std::string_view text) {
  std::vector<std::string> pointers;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string_view entry = text.substr(start, comma - start);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    if (!entry.empty()) {
      if (entry.front() != '/') {
        return makeError(Reason::kBadRequest,
                         "\"" + std::string(entry) +
                             "\" is not a JSON pointer: write each path from the object's root, "
                             "e.g. /spec/replicas or /data/key");
      }
      pointers.emplace_back(entry);
    }
    start = comma + 1;
  }
  return pointers;
}

}  // namespace kf::sync
