#pragma once
// Kubernetes objects are unstructured JSON. Caches hand them out immutable and shared.

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kf {

using Json = nlohmann::json;
using ObjectPtr = std::shared_ptr<const Json>;

// A resource of the API, as discovery describes it: enough to build its URL.
struct GroupVersionResource {
  std::string group;  // "" for the core group
  std::string version;
  std::string resource;  // plural, lower case: "configmaps"
  bool namespaced = true;

  std::string apiVersion() const { return group.empty() ? version : group + "/" + version; }
  auto operator<=>(const GroupVersionResource&) const = default;
};

struct ListOptions {
  std::string label_selector;
  std::string field_selector;
  std::string resource_version;        // "" = most recent (quorum read); "0" = any (cache)
  std::string resource_version_match;  // "", "NotOlderThan" or "Exact"
  std::int64_t limit = 0;              // 0: no paging
  std::string continue_token;
  std::optional<std::int64_t> timeout_seconds;  // watch: the server ends the stream after it
  bool allow_watch_bookmarks = false;
};

struct ObjectList {
  std::string resource_version;
  std::string continue_token;
  std::optional<std::int64_t> remaining_item_count;
  std::vector<Json> items;
};

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };

struct WatchEvent {
  WatchEventType type;
  Json object;  // for kError: the Status object the server sent
};

// Accessors for the fields every object has; missing fields read as empty.
std::string objectName(const Json& object);
std::string objectNamespace(const Json& object);
std::string objectResourceVersion(const Json& object);
std::string objectUid(const Json& object);
// "namespace/name", or "name" for cluster-scoped objects: the key of caches and work queues.
std::string objectKey(const Json& object);

}  // namespace kf
