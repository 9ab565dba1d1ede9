#pragma once
// Typed access to nested fields of unstructured objects with client-go's rules (NestedInt64,
// NestedString, SetNestedField, ...), for the places where KubeFed reports their errors
// (field retention). Unlike the metadata accessors in object_meta.h, a value of the wrong type
// is an error here, worded like client-go's:
//   ".spec.clusterIP accessor error: 5 is of the type int64, expected string".
// A missing field, or a null on the way, is "not found"; a null leaf is of the wrong type.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/json_reader.h"

namespace kf::sync {

using FieldNames = std::vector<std::string_view>;

// The raw value (nullptr when not found); fails when a step before the last is not an object.
Result<const Json*> nestedValue(const Json& object, const FieldNames& fields);

Result<std::optional<std::int64_t>> nestedInt64(const Json& object, const FieldNames& fields);
Result<std::optional<std::string>> nestedString(const Json& object, const FieldNames& fields);
Result<std::optional<bool>> nestedBool(const Json& object, const FieldNames& fields);
// A copy of an array (any elements).
Result<std::optional<Json>> nestedSlice(const Json& object, const FieldNames& fields);
Result<std::optional<std::vector<std::string>>> nestedStringSlice(const Json& object,
                                                                  const FieldNames& fields);

// Sets the field, creating missing objects on the way; fails when a step is not an object.
Status setNestedField(Json& object, Json value, const FieldNames& fields);

// `value` as it comes back from a Go round trip through interface{} (numbers as float64) and
// Kubernetes' decoder (integral numbers that fit int64 become integers again): 5.0 becomes 5,
// 2^53+1 becomes 2^53, 1e21 stays a float.
Json throughGoFloat64(const Json& value);

// Go's %T of a JSON value as Kubernetes decodes it: "string", "int64", "float64", "bool",
// "[]interface {}", "map[string]interface {}", "<nil>".
std::string goTypeName(const Json& value);

}  // namespace kf::sync
