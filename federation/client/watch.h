#pragma once
// A server watch as a pull stream, and the list/watch pair an informer's reflector consumes.

#include <functional>
#include <memory>
#include <optional>

#include "apis/meta/api_error.h"
#include "federation/client/list_options.h"

namespace kf {

// What consume() delivers to, one call at a time and never after on_end.
struct WatchConsumer {
  // Each event in order. Events of type kError carry the server's Status (e.g. 410 Gone).
  std::function<void(WatchEvent)> on_event;
  // Once, last: success when the stream ended cleanly (the server closed it, its timeoutSeconds
  // passed, or stop() was called); an error when the connection broke or the stream could not
  // be decoded.
  std::function<void(Status)> on_end;
};

class Watch {
 public:
  // Destroying a watch that is being consumed stops it; on_end still comes, later.
  virtual ~Watch() = default;
  // Blocks until the next event. nullopt: the stream ended cleanly (the server closed it, its
  // timeoutSeconds passed, or stop() was called). An error: the connection broke or the stream
  // could not be decoded. Events of type kError carry the server's Status (e.g. 410 Gone).
  virtual Result<std::optional<WatchEvent>> next() = 0;
  // Delivers the events as they arrive without holding the calling thread: the calls come on the
  // client's I/O threads (or on the caller's, for a stream already at hand) and must be short.
  // Either next() or consume(), and consume() once.
  virtual void consume(WatchConsumer consumer) = 0;
  // Thread-safe, idempotent: makes a blocked next() return nullopt, and a consumed watch end,
  // promptly.
  virtual void stop() = 0;
};
using WatchPtr = std::unique_ptr<Watch>;

// One resource (in one namespace or all), with fixed selectors, as a reflector sees it.
class ListerWatcher {
 public:
  virtual ~ListerWatcher() = default;
  virtual Result<ObjectList> list(const ListOptions& options) = 0;
  // list(), with the items handed to `on_item` one by one instead of returned (the result has
  // none): a client that decodes the response item by item holds at most one item as a tree.
  // This default decodes the whole page first.
  virtual Result<ObjectList> listEach(const ListOptions& options, const ListItemSink& on_item) {
    KF_TRY(page, list(options));
    for (Json& item : page.items) on_item(std::move(item));
    page.items.clear();
    return page;
  }
  virtual Result<WatchPtr> watch(const ListOptions& options) = 0;
};
using ListerWatcherPtr = std::unique_ptr<ListerWatcher>;

}  // namespace kf
