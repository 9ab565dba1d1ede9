#pragma once
// Lenient reads of the metadata that messages name objects by: never fail, "" when absent or not
// a string.

#include <string>

#include "apis/meta/json_reader.h"

namespace kf::scheduling {

// metadata.<key> of `object`.
std::string metadataText(const Json& object, const char* key);

// "<namespace>/<name>", or "<name>" without a namespace.
std::string objectKey(const Json& object);

}  // namespace kf::scheduling
