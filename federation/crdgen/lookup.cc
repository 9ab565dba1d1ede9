#include "federation/crdgen/lookup.h"

#include <algorithm>

#include "federation/crdgen/names.h"

namespace kf {

bool nameMatchesResource(const std::string& name, const ApiResourceInfo& resource) {
  const std::string wanted = toLower(name);
  if (wanted == resource.name || wanted == resource.singular_name ||
      wanted == toLower(resource.kind) || wanted == resource.name + "." + resource.group) {
    return true;
  }
  return std::any_of(resource.short_names.begin(), resource.short_names.end(),
                     [&](const std::string& s) { return toLower(s) == wanted; });
}

Result<ApiResourceInfo> matchApiResource(const std::string& name, const std::string& target_version,
                                         const std::vector<ApiResourceInfo>& resources) {
  std::vector<const ApiResourceInfo*> matched;
  for (const auto& resource : resources) {
    if (!target_version.empty() && resource.version != target_version) continue;
    if (!nameMatchesResource(name, resource)) continue;
    // Core types win over same-named types of other groups (e.g. "events").
    if (resource.group.empty()) return resource;
    matched.push_back(&resource);
  }
  if (matched.empty()) {
    return makeError(Reason::kNotFound, "Unable to find api resource named \"" + name + "\".");
  }
  if (matched.size() > 1) {
    std::string names;
    for (const auto* resource : matched) {
      if (!names.empty()) names += ", ";
      names += groupQualifiedName(resource->name, resource->group);
    }
    return makeError(Reason::kInvalid, "Multiple resources are matched by \"" + name +
                                           "\": " + names +
                                           ". A group-qualified plural name must be provided.");
  }
  return *matched.front();
}

Result<std::vector<ApiResourceInfo>> preferredResources(DiscoveryClient& discovery,
                                                        std::optional<ApiError>* partial_error) {
  KF_TRY(groups, discovery.groups());
  std::vector<ApiResourceInfo> all;
  for (const auto& group : groups) {
    auto list = discovery.resources(group.name, group.preferred_version);
    if (!list) {
      // An unavailable aggregated API must not hide the types every other group serves.
      if (partial_error != nullptr && !*partial_error) *partial_error = list.error();
      continue;
    }
    all.insert(all.end(), list.value().begin(), list.value().end());
  }
  return all;
}

Result<ApiResourceInfo> lookupApiResource(DiscoveryClient& discovery, const std::string& name,
                                          const std::string& target_version) {
  std::optional<ApiError> partial_error;
  KF_TRY(resources, preferredResources(discovery, &partial_error));
  auto found = matchApiResource(name, target_version, resources);
  if (!found && isNotFound(found.error()) && partial_error) {
    ApiError error = *partial_error;
    error.message = "Error listing api resources: " + error.message;
    return error;
  }
  return found;
}

}  // namespace kf
