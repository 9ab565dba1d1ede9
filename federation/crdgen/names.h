#pragma once
// Naming rules shared by FederatedTypeConfigs and the federated CRDs (spec §1.1); KubeFed's
// PluralName(kind) lives with the API types (apis/core).

#include <string>

#include "apis/meta/ascii.h"

namespace kf {

// "plural" for the core group, else "plural.group": the name of an FTC and of a CRD.
std::string groupQualifiedName(const std::string& plural, const std::string& group);

}  // namespace kf
