#include "federation/client/discovery.h"

#include <algorithm>

#include "apis/meta/ascii.h"
#include "federation/client/resource_client.h"

namespace kf {
namespace {

std::vector<std::string> stringsOf(const Json& object, const char* field) {
  std::vector<std::string> out;
  if (auto it = object.find(field); it != object.end() && it->is_array()) {
    for (const auto& value : *it) {
      if (value.is_string()) out.push_back(value.get<std::string>());
    }
  }
  return out;
}

ApiGroupInfo groupOf(const Json& group) {
  ApiGroupInfo info;
  info.name = group.value("name", "");
  for (const auto& version : group.value("versions", Json::array())) {
    info.versions.push_back(version.value("version", ""));
  }
  info.preferred_version = group.value("preferredVersion", Json::object()).value("version", "");
  if (info.preferred_version.empty() && !info.versions.empty()) {
    info.preferred_version = info.versions.front();
  }
  return info;
}

// An APIResourceList lists subresources as "pods/status": fold them into their resource.
std::vector<ApiResourceInfo> resourcesOf(const Json& list, const std::string& group,
                                         const std::string& version) {
  std::vector<ApiResourceInfo> resources;
  std::vector<std::pair<std::string, std::string>> subresources;
  for (const auto& entry : list.value("resources", Json::array())) {
    const std::string name = entry.value("name", "");
    if (const auto slash = name.find('/'); slash != std::string::npos) {
      subresources.emplace_back(name.substr(0, slash), name.substr(slash + 1));
      continue;
    }
    ApiResourceInfo info;
    info.group = group;
    info.version = version;
    info.name = name;
    info.singular_name = entry.value("singularName", "");
    info.kind = entry.value("kind", "");
    info.namespaced = entry.value("namespaced", false);
    info.verbs = stringsOf(entry, "verbs");
    info.short_names = stringsOf(entry, "shortNames");
    resources.push_back(std::move(info));
  }
  for (const auto& [parent, sub] : subresources) {
    for (auto& info : resources) {
      if (info.name == parent) info.subresources.push_back(sub);
    }
  }
  return resources;
}

bool matches(const ApiResourceInfo& info, const std::string& wanted) {
  if (toLower(info.name) == wanted || toLower(info.singular_name) == wanted ||
      toLower(info.kind) == wanted) {
    return true;
  }
  return std::any_of(info.short_names.begin(), info.short_names.end(),
                     [&](const std::string& s) { return toLower(s) == wanted; });
}

}  // namespace

bool ApiResourceInfo::hasVerb(const std::string& verb) const {
  return std::find(verbs.begin(), verbs.end(), verb) != verbs.end();
}

Result<std::vector<ApiGroupInfo>> DiscoveryClient::groups() {
  {
    MutexLock lock(mu_);
    if (groups_) return *groups_;
  }
  KF_TRY(core, client_.sendJson({.path = "/api"}));
  KF_TRY(named, client_.sendJson({.path = "/apis"}));
  std::vector<ApiGroupInfo> found;
  ApiGroupInfo core_group;
  core_group.versions = stringsOf(core, "versions");
  core_group.preferred_version = core_group.versions.empty() ? "v1" : core_group.versions.front();
  found.push_back(std::move(core_group));
  for (const auto& group : named.value("groups", Json::array())) found.push_back(groupOf(group));
  MutexLock lock(mu_);
  groups_ = found;
  return found;
}

Result<std::vector<ApiResourceInfo>> DiscoveryClient::resources(const std::string& group,
                                                                const std::string& version) {
  const std::string path = groupVersionPath(group, version);
  {
    MutexLock lock(mu_);
    if (auto it = resources_.find(path); it != resources_.end()) return it->second;
  }
  KF_TRY(list, client_.sendJson({.path = path}));
  auto found = resourcesOf(list, group, version);
  MutexLock lock(mu_);
  resources_[path] = found;
  return found;
}

void DiscoveryClient::invalidate() {
  MutexLock lock(mu_);
  groups_.reset();
  resources_.clear();
}

Result<std::optional<ApiResourceInfo>> DiscoveryClient::findCached(const std::string& name) {
  std::string wanted = toLower(name);
  std::optional<std::string> wanted_group;
  if (const auto dot = wanted.find('.'); dot != std::string::npos) {
    wanted_group = wanted.substr(dot + 1);
    wanted = wanted.substr(0, dot);
  }
  KF_TRY(all_groups, groups());
  std::vector<ApiResourceInfo> found;
  for (const auto& group : all_groups) {
    if (wanted_group && group.name != *wanted_group) continue;
    KF_TRY(list, resources(group.name, group.preferred_version));
    for (const auto& info : list) {
      if (matches(info, wanted)) found.push_back(info);
    }
  }
  if (found.empty()) return std::optional<ApiResourceInfo>();
  if (found.size() > 1) {
    std::string names;
    for (const auto& info : found) {
      names +=
          (names.empty() ? "" : ", ") + info.name + (info.group.empty() ? "" : "." + info.group);
    }
    return makeError(Reason::kInvalid, "\"" + name + "\" is ambiguous: it matches " + names +
                                           "; qualify it with its group, e.g. <plural>.<group>");
  }
  return std::optional(found.front());
}

Result<ApiResourceInfo> DiscoveryClient::find(const std::string& name) {
  KF_TRY(cached, findCached(name));
  if (cached) return *cached;
  invalidate();  // perhaps a CRD was created since the cache was filled
  KF_TRY(fresh, findCached(name));
  if (fresh) return *fresh;
  return makeError(Reason::kNotFound, "the server has no resource type \"" + name + "\"");
}

}  // namespace kf
