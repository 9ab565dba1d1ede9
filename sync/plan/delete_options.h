#pragma once
// The kubefed.io/deleteoption annotation of a federated object: metav1.DeleteOptions as JSON,
// used when its member objects are deleted (spec §2.5.6 Delete, §2.5.9). Only
// gracePeriodSeconds, propagationPolicy and preconditions are honoured; the other fields are
// read (and type-checked, as Go's decoder does) but not used.

#include <optional>
#include <string_view>

#include "apis/meta/api_error.h"
#include "apis/meta/delete_options.h"
#include "apis/meta/object.h"

namespace kf::sync {

inline constexpr std::string_view kDeleteOptionAnnotation = "kubefed.io/deleteoption";

// Decodes DeleteOptions JSON with Go's rules: keys match case-insensitively, unknown keys are
// ignored, null leaves a field unset; invalid JSON or a field of the wrong type is an error
// ("failed to deserialize delete options: json: cannot unmarshal string into Go struct field
// DeleteOptions.gracePeriodSeconds of type int64").
Result<DeleteOptions> parseDeleteOptions(std::string_view json_text);

// nullopt when the object has no such annotation.
Result<std::optional<DeleteOptions>> deleteOptionsOf(const Json& federated_object);

}  // namespace kf::sync
