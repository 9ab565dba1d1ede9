#pragma once
// How a Store holds an object: its JSON text, not a tree. A parsed nlohmann::json object costs a
// node, a key string and often a value string per field (about 5 KB for a ConfigMap of 0.4 KB
// as JSON); the text costs its bytes. Readers get a tree parsed on demand.
//
// metadata.managedFields is left out: no controller reads it, it is often as large as the rest
// of the object, and an update built from a cached object keeps the stored managedFields (the API
// server keeps them when a request omits the field).

#include <string>
#include <string_view>

#include "apis/meta/object.h"

namespace kf {

// `object` as compact JSON text, without metadata.managedFields.
std::string compactText(const Json& object);
// The same, appended to `out`.
void appendCompactText(std::string& out, const Json& object);

// The object of a text compactText() produced.
ObjectPtr fromCompactText(std::string_view text);

}  // namespace kf
