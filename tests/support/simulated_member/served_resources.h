#pragma once
// The resources a simulated member serves, and the discovery documents that describe them
// (/api, /apis, /api/v1, /apis/<group>/<version>), shaped as kube-apiserver v1.33 writes them.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/object.h"

namespace kf::sim {

struct ServedResource {
  std::string group;  // "" for the core group
  std::string version;
  std::string plural;
  std::string singular;
  std::string kind;
  bool namespaced = true;
  // metadata.generation is set on create and raised when anything outside metadata and status
  // changes, as for Deployments; ConfigMaps, Secrets and Namespaces have none.
  bool has_generation = false;
  // Writes to the object keep the stored status (the status belongs to a subresource).
  bool status_subresource = false;
  std::vector<std::string> short_names;

  std::string apiVersion() const { return group.empty() ? version : group + "/" + version; }
  // How the API server names the resource in messages: "configmaps", "deployments.apps".
  std::string qualifiedName() const { return group.empty() ? plural : plural + "." + group; }
};

// Every served resource.
const std::vector<ServedResource>& servedResources();
// nullptr when the resource is not served.
const ServedResource* findResource(std::string_view group, std::string_view version,
                                   std::string_view plural);
// The Namespace resource (namespaces are checked on every namespaced create).
const ServedResource& namespaceResource();

// GET /api, GET /apis.
Json apiVersionsDocument(const std::string& server_address);
Json apiGroupListDocument();
// GET /api/v1 or /apis/<group>/<version>; nullopt when no resource of that group version is
// served.
std::optional<Json> resourceListDocument(std::string_view group, std::string_view version);

}  // namespace kf::sim
