#pragma once
// Naming rules shared by FederatedTypeConfigs and the federated CRDs (spec §1.1); KubeFed's
// PluralName(kind) lives with the API types (apis/core).

#include <string>

namespace kf {

// "plural" for the core group, else "plural.group": the name of an FTC and of a CRD.
std::string groupQualifiedName(const std::string& plural, const std::string& group);

std::string toLower(std::string text);

}  // namespace kf
