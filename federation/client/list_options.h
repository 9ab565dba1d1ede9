#pragma once
// The shapes of list and watch requests and their answers.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "apis/meta/object.h"

namespace kf {

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

// Receives a list's items one by one, in the order of the response.
using ListItemSink = std::function<void(Json item)>;

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };

struct WatchEvent {
  WatchEventType type;
  Json object;  // for kError: the Status object the server sent
};

}  // namespace kf
