#pragma once
// A server watch as a pull stream, and the list/watch pair an informer's reflector consumes.

#include <memory>
#include <optional>

#include "apis/meta/api_error.h"
#include "federation/client/list_options.h"

namespace kf {

class Watch {
 public:
  virtual ~Watch() = default;
  // Blocks until the next event. nullopt: the stream ended cleanly (the server closed it, its
  // timeoutSeconds passed, or stop() was called). An error: the connection broke or the stream
  // could not be decoded. Events of type kError carry the server's Status (e.g. 410 Gone).
  virtual Result<std::optional<WatchEvent>> next() = 0;
  // Thread-safe, idempotent: makes a blocked next() return nullopt promptly.
  virtual void stop() = 0;
};
using WatchPtr = std::unique_ptr<Watch>;

// One resource (in one namespace or all), with fixed selectors, as a reflector sees it.
class ListerWatcher {
 public:
  virtual ~ListerWatcher() = default;
  virtual Result<ObjectList> list(const ListOptions& options) = 0;
  virtual Result<WatchPtr> watch(const ListOptions& options) = 0;
};
using ListerWatcherPtr = std::unique_ptr<ListerWatcher>;

}  // namespace kf
