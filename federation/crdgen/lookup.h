#pragma once
// Resolving the NAME argument of `kubefedctl enable|disable` to one API resource (spec §1.7):
// plural, singular, kind, "plural.group" or a short name, in the preferred version of each group.

#include <optional>
#include <string>
#include <vector>

#include "federation/client/discovery.h"

namespace kf {

// Whether `name` (any case) names `resource`.
bool nameMatchesResource(const std::string& name, const ApiResourceInfo& resource);

// The pure rule over resources listed in discovery order (core group first). A match in the core
// group wins at once; several other matches are an error naming them all; none is kNotFound.
// `target_version` (when not empty) skips resources of other versions.
Result<ApiResourceInfo> matchApiResource(const std::string& name, const std::string& target_version,
                                         const std::vector<ApiResourceInfo>& resources);

// Every resource of each group's preferred version, core group first. Groups whose resource list
// fails are skipped; the first such error is stored in *partial_error when given.
Result<std::vector<ApiResourceInfo>> preferredResources(
    DiscoveryClient& discovery, std::optional<ApiError>* partial_error = nullptr);

// preferredResources + matchApiResource. A partial discovery failure is reported only when no
// resource matched.
Result<ApiResourceInfo> lookupApiResource(DiscoveryClient& discovery, const std::string& name,
                                          const std::string& target_version);

}  // namespace kf
