#include "apis/encoding/version_hash.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apis/encoding/md5.h"

namespace kf {
namespace {

// KubeFed computes the override hash by encoding the whole federated object to JSON text and
// decoding that into Go structs (util.GenericOverride). These mirror the structs; decoding into
// them reproduces Go's rules: a key matches a field ignoring case, keys are visited in sorted
// order and a later match overwrites (or, for structs and slice elements, merges into) an
// earlier one, null leaves strings and structs alone and resets slices, pointers and values.
// Several matches for one field need case variants of a key, which the API server prunes; the
// rules are mirrored anyway so that the hash never depends on which spelling survived.

// A Go slice as encoding/json fills it. Decoding an array reuses the elements the slice has
// (merging into them); a shorter array only shortens the length, so the elements past it stay in
// the backing array and a later, longer array merges into them again. An empty array gets a new
// backing array, null makes the slice nil.
template <class Element>
struct GoSlice {
  std::vector<Element> backing;  // every element of the current backing array ever in use
  std::size_t length = 0;
  bool is_nil = true;

  auto begin() const { return backing.begin(); }
  auto end() const { return backing.begin() + static_cast<std::ptrdiff_t>(length); }
  bool empty() const { return length == 0; }
};

struct ClusterOverride {
  std::string op;
  std::string path;
  Json value;  // null = nil interface, omitted on output
};

struct OverrideItem {
  std::string cluster_name;
  GoSlice<ClusterOverride> cluster_overrides;  // nil and empty encode alike (omitempty)
};

struct OverrideSpec {
  GoSlice<OverrideItem> overrides;  // nil encodes as `null`, empty as `[]`
};

// Go's case-insensitive key match (bytes.EqualFold rules). Field names are ASCII; the only
// non-ASCII runes folding onto ASCII letters are U+017F (long s ~ s) and U+212A (Kelvin ~ k).
bool keyMatchesField(std::string_view key, std::string_view field) {
  const auto upper = [](char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; };
  std::size_t i = 0;
  for (char wanted : field) {
    if (i >= key.size()) return false;
    const std::string_view rest = key.substr(i);
    if (rest.starts_with("\xC5\xBF") && upper(wanted) == 'S') {
      i += 2;
    } else if (rest.starts_with("\xE2\x84\xAA") && upper(wanted) == 'K') {
      i += 3;
    } else if (upper(key[i]) == upper(wanted)) {
      ++i;
    } else {
      return false;
    }
  }
  return i == key.size();
}

// An override value as Go's decoder returns it into interface{}: numbers become float64,
// strings lose invalid UTF-8 (Go's encoder wrote it as \ufffd), and object keys that became
// equal that way collapse, the last in the original order winning as in a Go map.
Json asGoGenericValue(const Json& value) {
  switch (value.type()) {
    case Json::value_t::number_integer:
      return static_cast<double>(value.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return static_cast<double>(value.get<std::uint64_t>());
    case Json::value_t::string:
      return toValidUtf8(value.get_ref<const Json::string_t&>());
    case Json::value_t::array: {
      Json array = Json::array();
      for (const Json& element : value) array.push_back(asGoGenericValue(element));
      return array;
    }
    case Json::value_t::object: {
      Json object = Json::object();
      for (const auto& [key, member] : value.get_ref<const Json::object_t&>()) {
        object[toValidUtf8(key)] = asGoGenericValue(member);
      }
      return object;
    }
    default:
      return value;
  }
}

const char* goJsonKind(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "bool";
    case Json::value_t::string:
      return "string";
    case Json::value_t::array:
      return "array";
    case Json::value_t::object:
      return "object";
    default:
      return "number";
  }
}

class OverridesDecoder {
 public:
  // Decodes the federated object; error() tells whether Go's json.Unmarshal would have failed.
  void decodeObject(const Json& object) {
    for (const auto& [key, value] : object.get_ref<const Json::object_t&>()) {
      if (keyMatchesField(key, "apiVersion") || keyMatchesField(key, "kind")) {
        std::string ignored;
        decodeString(value, ignored, key);
      } else if (keyMatchesField(key, "metadata")) {
        if (!value.is_null() && !value.is_object()) mismatch(value, "metadata", "ObjectMeta");
      } else if (keyMatchesField(key, "spec")) {
        decodeSpec(value);
      }
    }
  }

  const std::optional<OverrideSpec>& spec() const { return spec_; }
  const std::string& error() const { return error_; }

 private:
  void decodeSpec(const Json& value) {
    if (value.is_null()) {
      spec_.reset();
    } else if (value.is_object()) {
      if (!spec_) spec_.emplace();
      for (const auto& [key, member] : value.get_ref<const Json::object_t&>()) {
        if (keyMatchesField(key, "overrides")) decodeOverrideItems(member, spec_->overrides);
      }
    } else {
      mismatch(value, "spec", "GenericOverrideSpec");
    }
  }

  void decodeOverrideItems(const Json& value, GoSlice<OverrideItem>& items) {
    decodeSlice(value, items, &OverridesDecoder::decodeItem, "spec.overrides",
                "[]GenericOverrideItem");
  }

  void decodeItem(const Json& value, OverrideItem& item) {
    if (value.is_null()) return;
    if (!value.is_object()) return mismatch(value, "spec.overrides[]", "GenericOverrideItem");
    for (const auto& [key, member] : value.get_ref<const Json::object_t&>()) {
      if (keyMatchesField(key, "clusterName")) {
        decodeString(member, item.cluster_name, "spec.overrides[].clusterName");
      } else if (keyMatchesField(key, "clusterOverrides")) {
        decodeSlice(member, item.cluster_overrides, &OverridesDecoder::decodeClusterOverride,
                    "spec.overrides[].clusterOverrides", "[]ClusterOverride");
      }
    }
  }

  void decodeClusterOverride(const Json& value, ClusterOverride& patch) {
    if (value.is_null()) return;
    if (!value.is_object()) {
      return mismatch(value, "spec.overrides[].clusterOverrides[]", "ClusterOverride");
    }
    for (const auto& [key, member] : value.get_ref<const Json::object_t&>()) {
      if (keyMatchesField(key, "op")) {
        decodeString(member, patch.op, "spec.overrides[].clusterOverrides[].op");
      } else if (keyMatchesField(key, "path")) {
        decodeString(member, patch.path, "spec.overrides[].clusterOverrides[].path");
      } else if (keyMatchesField(key, "value")) {
        patch.value = asGoGenericValue(member);
      }
    }
  }

  template <class Element>
  void decodeSlice(const Json& value, GoSlice<Element>& slice,
                   void (OverridesDecoder::*decodeElement)(const Json&, Element&),
                   std::string_view field, std::string_view type) {
    if (value.is_null()) {
      slice = GoSlice<Element>{};
      return;
    }
    if (!value.is_array()) return mismatch(value, field, type);
    if (value.empty()) {
      slice = GoSlice<Element>{{}, 0, /*is_nil=*/false};
      return;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i == slice.backing.size()) slice.backing.emplace_back();
      (this->*decodeElement)(value[i], slice.backing[i]);
    }
    slice.length = value.size();
    slice.is_nil = false;
  }

  void decodeString(const Json& value, std::string& out, std::string_view field) {
    if (value.is_string()) {
      out = toValidUtf8(value.get_ref<const Json::string_t&>());
    } else if (!value.is_null()) {
      mismatch(value, field, "string");
    }
  }

  // Go keeps decoding after a type mismatch and reports the first one.
  void mismatch(const Json& value, std::string_view field, std::string_view type) {
    if (!error_.empty()) return;
    error_ = "json: cannot unmarshal ";
    error_ += goJsonKind(value);
    error_ += " into Go struct field ";
    error_ += field;
    error_ += " of type ";
    error_ += type;
  }

  std::optional<OverrideSpec> spec_;
  std::string error_;
};

void appendClusterOverride(std::string& out, const ClusterOverride& patch) {
  out += '{';
  if (!patch.op.empty()) {
    out += "\"op\":";
    out += goJsonQuote(patch.op);
    out += ',';
  }
  out += "\"path\":";
  out += goJsonQuote(patch.path);
  if (!patch.value.is_null()) {
    out += ",\"value\":";
    out += goJsonEncode(patch.value);
  }
  out += '}';
}

void appendOverrideItem(std::string& out, const OverrideItem& item) {
  out += "{\"clusterName\":";
  out += goJsonQuote(item.cluster_name);
  if (!item.cluster_overrides.empty()) {
    out += ",\"clusterOverrides\":[";
    bool first = true;
    for (const ClusterOverride& patch : item.cluster_overrides) {
      if (!first) out += ',';
      first = false;
      appendClusterOverride(out, patch);
    }
    out += ']';
  }
  out += '}';
}

// The struct-shaped part is written by hand because Go writes struct fields in declaration
// order, while goJsonEncode (like a Go map) sorts keys.
std::string encodeOverrides(const GoSlice<OverrideItem>& items) {
  std::string out = "{\"overrides\":";
  if (items.is_nil) {
    out += "null";
  } else {
    out += '[';
    bool first = true;
    for (const OverrideItem& item : items) {
      if (!first) out += ',';
      first = false;
      appendOverrideItem(out, item);
    }
    out += ']';
  }
  out += "}\n";
  return out;
}

// False when Go's encoder would fail somewhere in `value` (NaN, ±Inf).
bool goCanEncode(const Json& value) {
  switch (value.type()) {
    case Json::value_t::number_float:
      return std::isfinite(value.get<double>());
    case Json::value_t::array:
    case Json::value_t::object:
      for (const Json& member : value) {
        if (!goCanEncode(member)) return false;
      }
      return true;
    case Json::value_t::binary:
    case Json::value_t::discarded:
      return false;
    default:
      return true;
  }
}

EncodeResult notAnObject() { return {"", "federated object is not a JSON object"}; }

}  // namespace

EncodeResult templateVersion(const Json& federated_object) {
  if (!federated_object.is_object()) return notAnObject();
  const auto spec = federated_object.find("spec");
  if (spec == federated_object.end() || spec->is_null()) return {};
  if (!spec->is_object()) return {"", ".spec accessor error: expected map[string]interface{}"};
  const auto template_value = spec->find("template");
  if (template_value == spec->end()) return {};
  if (!template_value->is_object()) {
    return {"", ".spec.template accessor error: expected map[string]interface{}"};
  }
  EncodeResult encoded = goJsonMarshal(*template_value);
  if (!encoded.ok()) return encoded;
  encoded.value += '\n';
  return {md5Hex(encoded.value), ""};
}

EncodeResult overridesHashInput(const Json& federated_object) {
  if (!federated_object.is_object()) return notAnObject();
  // KubeFed first encodes the whole object, which fails on any number Go cannot encode.
  if (!goCanEncode(federated_object)) return goJsonMarshal(federated_object);
  OverridesDecoder decoder;
  decoder.decodeObject(federated_object);
  if (!decoder.error().empty()) return {"", decoder.error()};
  if (!decoder.spec()) return {};
  return {encodeOverrides(decoder.spec()->overrides), ""};
}

EncodeResult overridesVersion(const Json& federated_object) {
  EncodeResult input = overridesHashInput(federated_object);
  if (input.ok() && !input.value.empty()) input.value = md5Hex(input.value);
  return input;
}

}  // namespace kf
