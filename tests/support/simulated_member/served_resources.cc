#include "tests/support/simulated_member/served_resources.h"

#include <map>
#include <set>

namespace kf::sim {
namespace {

const std::vector<std::string> kVerbs = {"create", "delete", "get",  "list",
                                         "patch",  "update", "watch"};

std::vector<ServedResource> makeTable() {
  return {
      {.version = "v1",
       .plural = "namespaces",
       .singular = "namespace",
       .kind = "Namespace",
       .namespaced = false,
       .status_subresource = true,
       .short_names = {"ns"}},
      {.version = "v1",
       .plural = "configmaps",
       .singular = "configmap",
       .kind = "ConfigMap",
       .short_names = {"cm"}},
      {.version = "v1", .plural = "secrets", .singular = "secret", .kind = "Secret"},
      {.version = "v1",
       .plural = "serviceaccounts",
       .singular = "serviceaccount",
       .kind = "ServiceAccount",
       .short_names = {"sa"}},
      {.version = "v1",
       .plural = "podtemplates",
       .singular = "podtemplate",
       .kind = "PodTemplate",
       .has_generation = true},
      {.group = "apps",
       .version = "v1",
       .plural = "deployments",
       .singular = "deployment",
       .kind = "Deployment",
       .has_generation = true,
       .status_subresource = true,
       .short_names = {"deploy"}},
  };
}

Json resourceEntry(const ServedResource& resource) {
  Json entry = {{"name", resource.plural},
                {"singularName", resource.singular},
                {"namespaced", resource.namespaced},
                {"kind", resource.kind},
                {"verbs", kVerbs}};
  if (!resource.short_names.empty()) entry["shortNames"] = resource.short_names;
  return entry;
}

}  // namespace

const std::vector<ServedResource>& servedResources() {
  // Never destroyed: members still serving while the process exits may read it.
  static const auto* const table = new std::vector<ServedResource>(makeTable());
  return *table;
}

const ServedResource* findResource(std::string_view group, std::string_view version,
                                   std::string_view plural) {
  for (const ServedResource& resource : servedResources()) {
    if (resource.group == group && resource.version == version && resource.plural == plural) {
      return &resource;
    }
  }
  return nullptr;
}

const ServedResource& namespaceResource() { return servedResources().front(); }

Json apiVersionsDocument(const std::string& server_address) {
  return {{"kind", "APIVersions"},
          {"versions", {"v1"}},
          {"serverAddressByClientCIDRs",
           {{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", server_address}}}}};
}

Json apiGroupListDocument() {
  std::map<std::string, std::set<std::string>> versions;
  for (const ServedResource& resource : servedResources()) {
    if (!resource.group.empty()) versions[resource.group].insert(resource.version);
  }
  Json groups = Json::array();
  for (const auto& [group, group_versions] : versions) {
    Json entries = Json::array();
    for (const std::string& version : group_versions) {
      entries.push_back({{"groupVersion", group + "/" + version}, {"version", version}});
    }
    groups.push_back({{"name", group}, {"versions", entries}, {"preferredVersion", entries[0]}});
  }
  return {{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", groups}};
}

std::optional<Json> resourceListDocument(std::string_view group, std::string_view version) {
  Json resources = Json::array();
  for (const ServedResource& resource : servedResources()) {
    if (resource.group != group || resource.version != version) continue;
    resources.push_back(resourceEntry(resource));
    if (resource.status_subresource) {
      resources.push_back({{"name", resource.plural + "/status"},
                           {"singularName", ""},
                           {"namespaced", resource.namespaced},
                           {"kind", resource.kind},
                           {"verbs", {"get", "patch", "update"}}});
    }
  }
  if (resources.empty()) return std::nullopt;
  const std::string group_version =
      group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
  Json document = {{"kind", "APIResourceList"}, {"groupVersion", group_version}};
  // The core group's list has no apiVersion; the named groups' lists do.
  if (!group.empty()) document["apiVersion"] = "v1";
  document["resources"] = resources;
  return document;
}

}  // namespace kf::sim
