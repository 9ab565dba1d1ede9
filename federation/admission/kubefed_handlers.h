#pragma once
// KubeFed's admission handlers for its own types (spec §2.10). Each one only routes: which
// requests it looks at, how it decodes them and how it answers; the rules themselves are
// apis/core's (validation.h, setKubeFedConfigDefaults), the ones the controller manager applies.

#include <string_view>

#include "federation/admission/admission_review.h"

namespace kf::admission {

inline constexpr std::string_view kValidateFederatedTypeConfigsPath =
    "/validate-federatedtypeconfigs";
inline constexpr std::string_view kValidateKubeFedClusterPath = "/validate-kubefedcluster";
inline constexpr std::string_view kValidateKubeFedConfigPath = "/validate-kubefedconfig";
inline constexpr std::string_view kDefaultKubeFedConfigPath = "/default-kubefedconfig";

// Whether a handler for `resource` (a core.kubefed.io plural) looks at the request at all: only
// CREATE and UPDATE of that resource are checked, anything else is allowed as it is.
bool isCreateOrUpdateOf(const AdmissionRequest& request, std::string_view resource);

// Name and spec; with any subresource (status), the status only.
AdmissionResponse validateFederatedTypeConfigRequest(const AdmissionRequest& request);
// Spec; with the subresource "status", the status only.
AdmissionResponse validateKubeFedClusterRequest(const AdmissionRequest& request);
// The whole config; on UPDATE also that the scope did not change.
AdmissionResponse validateKubeFedConfigRequest(const AdmissionRequest& request);
// Allowed with one JSON patch operation, replace /spec with the defaulted spec, when defaulting
// changes anything; allowed without a patch otherwise.
AdmissionResponse defaultKubeFedConfigRequest(const AdmissionRequest& request);

}  // namespace kf::admission
