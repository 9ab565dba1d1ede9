#pragma once
// The diff `kubefedctl plan` prints for one member object: live (-) to as the sync controller
// would write it (+), in YAML, without what the server sets on every write. A Secret's values
// are masked as `kubectl diff` masks them, so that a plan shows which keys change and never
// what they hold.

#include <string>

#include "apis/core/federated_type_config.h"
#include "apis/meta/object.h"

namespace kf::kubefedctl {

// kubectl diff's masking of a v1 Secret, applied to both sides: every value of `data` becomes
// "***", except one whose key both sides have with different values: "*** (before)" in `live`,
// "*** (after)" in `written`. Beyond kubectl, which never sees them (the server folds
// `stringData` into `data`, and it diffs objects the server returned): `stringData` (the desired
// object when the server's dry run failed) and kubectl's last-applied-configuration annotation
// (a copy of the data, on a member Secret once applied with kubectl) are masked the same way.
void maskSecretValues(Json& live, Json& written);

// "" when the printed objects are equal. `live` is null for a creation. `label` names the
// object in the diff's header lines.
std::string memberDiff(const core::ApiResource& target_type, Json live, Json written,
                       const std::string& label);

}  // namespace kf::kubefedctl
