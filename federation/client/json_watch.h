#pragma once
// Decodes a watch response body: one JSON WatchEvent per line, {"type": ..., "object": ...}.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "federation/client/rest_config.h"
#include "federation/client/transport.h"
#include "federation/client/watch.h"

namespace kf {

struct JsonWatchOptions {
  // A stream silent for this long ends the watch with kClientTimeout; nullopt: never.
  std::optional<std::chrono::milliseconds> idle_timeout;
  // A line (one event) longer than this ends the watch with kBadResponse, instead of being
  // buffered while it grows (RestConfig::max_watch_event_bytes).
  std::size_t max_event_bytes = RestConfig{}.max_watch_event_bytes;
  // Who sends the stream, as errors name it: "API server https://10.0.0.1:6443".
  std::string source = "the server";
};

WatchPtr makeJsonWatch(ResponseStreamPtr stream, JsonWatchOptions options = {});

// Decodes one line of a watch stream.
Result<WatchEvent> decodeWatchEvent(std::string_view line);

}  // namespace kf
