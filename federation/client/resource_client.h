#pragma once
// The dynamic client: CRUD, list, patch and watch of one resource on unstructured JSON.

#include <memory>
#include <optional>
#include <string>

#include "apis/meta/delete_options.h"
#include "federation/client/list_options.h"
#include "federation/client/rest_client.h"
#include "federation/client/watch.h"

namespace kf {

enum class PatchType { kJson, kMerge, kStrategicMerge };

// Options of a create or update.
struct WriteOptions {
  // Server-side dry run (dryRun=All): the server admits, defaults and validates the object and
  // returns it as it would store it, but persists nothing.
  bool dry_run = false;
};

// Options of a server-side apply.
struct ApplyOptions {
  std::string field_manager;  // required
  bool force = false;         // take fields other managers own instead of failing with Conflict
  bool dry_run = false;       // dryRun=All, as WriteOptions
};

class ResourceClient {
 public:
  // `ns` is ignored for cluster-scoped resources; "" on a namespaced one means all namespaces
  // (list and watch only).
  ResourceClient(RestClient& client, GroupVersionResource resource, std::string ns = "");

  Result<Json> get(const std::string& name);
  // One page (options.limit / continue_token), as the server returns it.
  Result<ObjectList> list(const ListOptions& options);
  // One page, its items handed to `on_item` one by one as they are decoded (list_decoder.h);
  // the result has the page's metadata and no items.
  Result<ObjectList> listEach(const ListOptions& options, const ListItemSink& on_item);
  // Every page, following continue tokens.
  Result<ObjectList> listAll(ListOptions options);
  Result<Json> create(const Json& object, const WriteOptions& options = {});
  Result<Json> update(const Json& object, const WriteOptions& options = {});
  Result<Json> updateStatus(const Json& object);
  Result<Json> patch(const std::string& name, PatchType type, const std::string& patch,
                     const std::string& subresource = "");
  // Server-side apply: `object` (its fields the intent of the field manager) as an apply patch
  // (application/apply-patch+yaml; JSON is YAML). Unless forced, a field another manager owns
  // with another value fails the whole request with Conflict, its causes naming each field and
  // manager. Creates the object when it does not exist.
  Result<Json> apply(const Json& object, const ApplyOptions& options);
  Status remove(const std::string& name, const DeleteOptions& options = {});
  Result<WatchPtr> watch(const ListOptions& options);

  const GroupVersionResource& resource() const { return resource_; }

 private:
  std::string collectionPath() const;
  // The GET of one page, its body not yet decoded.
  Result<HttpResponse> getPage(const ListOptions& options);
  std::string objectPath(const std::string& name, const std::string& subresource = "") const;

  RestClient& client_;
  GroupVersionResource resource_;
  std::string namespace_;
};

// The list/watch pair an informer needs, for one resource with fixed selectors.
ListerWatcherPtr makeListerWatcher(RestClient& client, GroupVersionResource resource,
                                   std::string ns, std::string label_selector,
                                   std::string field_selector);
// The same over a shared client, which the ListerWatcher keeps alive (member clusters' clients
// are replaced when their KubeFedCluster changes, while informers may still hold the old one).
ListerWatcherPtr makeListerWatcher(std::shared_ptr<RestClient> client,
                                   GroupVersionResource resource, std::string ns,
                                   std::string label_selector, std::string field_selector);

// Path prefix of a group version: "/api/v1" or "/apis/apps/v1".
std::string groupVersionPath(const std::string& group, const std::string& version);

}  // namespace kf
