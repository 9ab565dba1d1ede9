#include "federation/client/resource_client.h"

#include "federation/client/json_watch.h"
#include "federation/client/list_decoder.h"

namespace kf {
namespace {

std::vector<std::pair<std::string, std::string>> queryOf(const ListOptions& options, bool watch) {
  std::vector<std::pair<std::string, std::string>> query;
  auto add = [&query](const char* key, const std::string& value) {
    if (!value.empty()) query.emplace_back(key, value);
  };
  add("labelSelector", options.label_selector);
  add("fieldSelector", options.field_selector);
  add("resourceVersion", options.resource_version);
  add("resourceVersionMatch", options.resource_version_match);
  if (options.limit > 0) add("limit", std::to_string(options.limit));
  add("continue", options.continue_token);
  if (options.timeout_seconds) add("timeoutSeconds", std::to_string(*options.timeout_seconds));
  if (watch) {
    query.emplace_back("watch", "true");
    if (options.allow_watch_bookmarks) query.emplace_back("allowWatchBookmarks", "true");
  }
  return query;
}

const char* contentTypeOf(PatchType type) {
  switch (type) {
    case PatchType::kJson:
      return "application/json-patch+json";
    case PatchType::kMerge:
      return "application/merge-patch+json";
    case PatchType::kStrategicMerge:
      return "application/strategic-merge-patch+json";
  }
  return "application/merge-patch+json";
}

Json deleteOptionsBody(const DeleteOptions& options) {
  Json body = {{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
  if (options.propagation_policy) body["propagationPolicy"] = *options.propagation_policy;
  if (options.grace_period_seconds) body["gracePeriodSeconds"] = *options.grace_period_seconds;
  if (options.precondition_uid) body["preconditions"]["uid"] = *options.precondition_uid;
  if (options.precondition_resource_version) {
    body["preconditions"]["resourceVersion"] = *options.precondition_resource_version;
  }
  return body;
}

class ResourceListerWatcher final : public ListerWatcher {
 public:
  ResourceListerWatcher(RestClient& client, GroupVersionResource resource, std::string ns,
                        std::string label_selector, std::string field_selector,
                        std::shared_ptr<RestClient> owned = nullptr)
      : owned_(std::move(owned)),
        client_(client, std::move(resource), std::move(ns)),
        label_selector_(std::move(label_selector)),
        field_selector_(std::move(field_selector)) {}

  Result<ObjectList> list(const ListOptions& options) override {
    return client_.list(withSelectors(options));
  }
  Result<ObjectList> listEach(const ListOptions& options, const ListItemSink& on_item) override {
    return client_.listEach(withSelectors(options), on_item);
  }
  Result<WatchPtr> watch(const ListOptions& options) override {
    return client_.watch(withSelectors(options));
  }

 private:
  ListOptions withSelectors(ListOptions options) const {
    options.label_selector = label_selector_;
    options.field_selector = field_selector_;
    return options;
  }

  std::shared_ptr<RestClient> owned_;  // keeps a shared client alive; may be null
  ResourceClient client_;
  std::string label_selector_;
  std::string field_selector_;
};

std::vector<std::pair<std::string, std::string>> writeQuery(const WriteOptions& options) {
  if (!options.dry_run) return {};
  return {{"dryRun", "All"}};
}

}  // namespace

std::string groupVersionPath(const std::string& group, const std::string& version) {
  return group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
}

ResourceClient::ResourceClient(RestClient& client, GroupVersionResource resource, std::string ns)
    : client_(client), resource_(std::move(resource)), namespace_(std::move(ns)) {}

std::string ResourceClient::collectionPath() const {
  std::string path = groupVersionPath(resource_.group, resource_.version);
  if (resource_.namespaced && !namespace_.empty()) path += "/namespaces/" + namespace_;
  return path + "/" + resource_.resource;
}

std::string ResourceClient::objectPath(const std::string& name,
                                       const std::string& subresource) const {
  std::string path = collectionPath() + "/" + name;
  return subresource.empty() ? path : path + "/" + subresource;
}

Result<Json> ResourceClient::get(const std::string& name) {
  return client_.sendJson({.method = "GET", .path = objectPath(name)});
}

Result<HttpResponse> ResourceClient::getPage(const ListOptions& options) {
  return client_.send(
      {.method = "GET", .path = collectionPath(), .query = queryOf(options, false)});
}

Result<ObjectList> ResourceClient::list(const ListOptions& options) {
  KF_TRY(response, getPage(options));
  return decodeList(response.body);
}

Result<ObjectList> ResourceClient::listEach(const ListOptions& options,
                                            const ListItemSink& on_item) {
  KF_TRY(response, getPage(options));
  return decodeListEach(response.body, on_item);
}

Result<ObjectList> ResourceClient::listAll(ListOptions options) {
  ObjectList all;
  while (true) {
    KF_TRY(page, list(options));
    all.resource_version = page.resource_version;
    std::move(page.items.begin(), page.items.end(), std::back_inserter(all.items));
    if (page.continue_token.empty()) return all;
    options.continue_token = page.continue_token;
  }
}

Result<Json> ResourceClient::create(const Json& object, const WriteOptions& options) {
  return client_.sendJson({.method = "POST",
                           .path = collectionPath(),
                           .query = writeQuery(options),
                           .body = object.dump(),
                           .idempotent = false});
}

Result<Json> ResourceClient::update(const Json& object, const WriteOptions& options) {
  return client_.sendJson({.method = "PUT",
                           .path = objectPath(objectName(object)),
                           .query = writeQuery(options),
                           .body = object.dump()});
}

Result<Json> ResourceClient::updateStatus(const Json& object) {
  return client_.sendJson(
      {.method = "PUT", .path = objectPath(objectName(object), "status"), .body = object.dump()});
}

Result<Json> ResourceClient::patch(const std::string& name, PatchType type,
                                   const std::string& patch, const std::string& subresource) {
  return client_.sendJson({.method = "PATCH",
                           .path = objectPath(name, subresource),
                           .body = patch,
                           .content_type = contentTypeOf(type),
                           .idempotent = false});
}

Result<Json> ResourceClient::apply(const Json& object, const ApplyOptions& options) {
  std::vector<std::pair<std::string, std::string>> query = {
      {"fieldManager", options.field_manager}};
  if (options.force) query.emplace_back("force", "true");
  if (options.dry_run) query.emplace_back("dryRun", "All");
  return client_.sendJson({.method = "PATCH",
                           .path = objectPath(objectName(object)),
                           .query = std::move(query),
                           .body = object.dump(),
                           .content_type = "application/apply-patch+yaml",
                           .idempotent = false});
}

Status ResourceClient::remove(const std::string& name, const DeleteOptions& options) {
  KF_TRYV(client_.send(
      {.method = "DELETE", .path = objectPath(name), .body = deleteOptionsBody(options).dump()}));
  return boost::outcome_v2::success();
}

Result<WatchPtr> ResourceClient::watch(const ListOptions& options) {
  RestRequest request{.method = "GET", .path = collectionPath(), .query = queryOf(options, true)};
  KF_TRY(stream, client_.openStream(request));
  const RestConfig& config = client_.config();
  JsonWatchOptions watch_options{.max_event_bytes = config.max_watch_event_bytes,
                                 .source = config.server_role + " " + config.server};
  if (options.timeout_seconds) {
    // The server closes the stream at timeoutSeconds; a silent stream well past it is dead.
    watch_options.idle_timeout = std::chrono::seconds(*options.timeout_seconds + 60);
  }
  return makeJsonWatch(std::move(stream), std::move(watch_options));
}

ListerWatcherPtr makeListerWatcher(RestClient& client, GroupVersionResource resource,
                                   std::string ns, std::string label_selector,
                                   std::string field_selector) {
  return std::make_unique<ResourceListerWatcher>(client, std::move(resource), std::move(ns),
                                                 std::move(label_selector),
                                                 std::move(field_selector));
}

ListerWatcherPtr makeListerWatcher(std::shared_ptr<RestClient> client,
                                   GroupVersionResource resource, std::string ns,
                                   std::string label_selector, std::string field_selector) {
  RestClient& ref = *client;
  return std::make_unique<ResourceListerWatcher>(ref, std::move(resource), std::move(ns),
                                                 std::move(label_selector),
                                                 std::move(field_selector), std::move(client));
}

}  // namespace kf
