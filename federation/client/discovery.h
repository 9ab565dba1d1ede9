#pragma once
// Discovery of the server's API groups and resources, cached until invalidated (a new CRD is
// found by invalidating, as kubectl does when a name does not resolve).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "federation/client/list_options.h"
#include "federation/client/rest_client.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

struct ApiGroupInfo {
  std::string name;  // "" for the core group
  std::vector<std::string> versions;
  std::string preferred_version;
};

struct ApiResourceInfo {
  std::string group;
  std::string version;
  std::string name;  // plural
  std::string singular_name;
  std::string kind;
  bool namespaced = false;
  std::vector<std::string> verbs;
  std::vector<std::string> short_names;
  std::vector<std::string> subresources;  // "status", "scale", ...

  GroupVersionResource gvr() const { return {group, version, name, namespaced}; }
  bool hasVerb(const std::string& verb) const;
};

class DiscoveryClient {
 public:
  explicit DiscoveryClient(RestClient& client) : client_(client) {}

  Result<std::vector<ApiGroupInfo>> groups();
  Result<std::vector<ApiResourceInfo>> resources(const std::string& group,
                                                 const std::string& version);
  // Finds a resource by plural, singular, short name or kind (case-insensitive), optionally
  // qualified "name.group" (as kubectl: "deployments.apps"), in each group's preferred version.
  // On a miss the cache is refreshed once. Several matches in different groups: kInvalid
  // naming them; none: kNotFound.
  Result<ApiResourceInfo> find(const std::string& name);
  // Forgets everything, so the next call asks the server again.
  void invalidate();

 private:
  Result<std::optional<ApiResourceInfo>> findCached(const std::string& name);

  RestClient& client_;
  Mutex mu_;
  std::optional<std::vector<ApiGroupInfo>> groups_ KF_GUARDED_BY(mu_);
  std::map<std::string, std::vector<ApiResourceInfo>> resources_ KF_GUARDED_BY(mu_);
};

}  // namespace kf
