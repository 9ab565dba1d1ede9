#pragma once
// Decodes a watch response body: one JSON WatchEvent per line, {"type": ..., "object": ...}.

#include <chrono>
#include <optional>

#include "federation/client/transport.h"
#include "federation/client/watch.h"

namespace kf {

WatchPtr makeJsonWatch(ResponseStreamPtr stream,
                       std::optional<std::chrono::milliseconds> idle_timeout);

// Decodes one line of a watch stream.
Result<WatchEvent> decodeWatchEvent(std::string_view line);

}  // namespace kf
