#pragma once
// Kubernetes name rules (apimachinery util/validation) with their exact messages, and the
// field-error wrappers KubeFed's validators build from them.

#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/field_errors.h"

namespace kf::meta {

// Empty when valid; otherwise the messages IsDNS1123Subdomain returns.
std::vector<std::string> dns1123SubdomainErrors(std::string_view value);
// Empty when valid; otherwise the messages IsDNS1035Label returns.
std::vector<std::string> dns1035LabelErrors(std::string_view value);

// apimachinery's IsQualifiedName / IsValidLabelValue (label keys and values): empty when
// valid, else the messages.
std::vector<std::string> qualifiedNameErrors(std::string_view value);
std::vector<std::string> labelValueErrors(std::string_view value);

// Nothing when valid; otherwise one Invalid error, the value quoted and the messages joined by
// "," (as KubeFed reports them).
ErrorList validateDns1123Subdomain(std::string_view value, const FieldPath& path);

}  // namespace kf::meta

namespace kf::meta {

// KubeFed's enum rule: "" is Required, anything outside `accepted` is Unsupported.
ErrorList validateEnumString(std::string_view value, const FieldPath& path,
                             const std::vector<std::string>& accepted);

}  // namespace kf::meta
