#include "federation/informer/reflector.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "federation/runtime/backoff.h"
#include "federation/runtime/interruptible_sleep.h"

namespace kf {
namespace {

// The Status of an ERROR event says the resourceVersion we watch from was compacted away.
bool isGoneStatus(const Json& status) {
  if (!status.is_object()) {
    return false;
  }
  const auto code = status.find("code");
  if (code != status.end() && code->is_number_integer() && code->get<int>() == 410) {
    return true;
  }
  const auto reason = status.find("reason");
  return reason != status.end() && reason->is_string() &&
         (*reason == "Expired" || *reason == "Gone");
}

std::string statusMessage(const Json& status) {
  if (status.is_object()) {
    const auto message = status.find("message");
    if (message != status.end() && message->is_string()) {
      return message->get<std::string>();
    }
  }
  return status.dump();
}

}  // namespace

Reflector::Reflector(ListerWatcher& lister_watcher, ReflectorSink& sink, Clock& clock,
                     ReflectorOptions options)
    : lister_watcher_(lister_watcher),
      sink_(sink),
      clock_(clock),
      options_(std::move(options)),
      random_(std::random_device{}()) {}

Reflector::~Reflector() { stop(); }

void Reflector::start() {
  MutexLock lock(mu_);
  if (started_) {
    return;
  }
  started_ = true;
  thread_ = std::jthread([this](const std::stop_token& stop) { run(stop); });
}

void Reflector::stop() {
  std::jthread thread;
  {
    MutexLock lock(mu_);
    started_ = true;  // a stopped reflector stays stopped
    thread = std::move(thread_);
  }
  // Joined outside the lock: the thread takes it to record resource versions.
  if (thread.joinable()) {
    thread.request_stop();
    thread.join();
  }
}

std::string Reflector::lastSyncResourceVersion() const {
  MutexLock lock(mu_);
  return resource_version_;
}

void Reflector::run(const std::stop_token& stop) {
  Backoff backoff(options_.initial_backoff, options_.max_backoff);
  bool need_list = true;
  // Set by a re-list that cured a stale resourceVersion; cleared by the next healthy watch.
  bool recovering = false;
  while (!stop.stop_requested()) {
    if (need_list) {
      Status listed = listAndReplace(stop);
      if (!listed) {
        if (stop.stop_requested()) {
          return;
        }
        spdlog::warn("reflector {}: list failed: {}", options_.name, listed.error().describe());
        if (!sleepUnlessStopped(clock_, stop, backoff.next())) {
          return;
        }
        continue;
      }
      need_list = false;
    }

    const WatchOutcome outcome = watchOnce(stop);
    if (outcome.healthy) {
      backoff.reset();
      recovering = false;
    }
    switch (outcome.end) {
      case WatchEnd::kStopped:
        return;
      case WatchEnd::kClosed:
        if (outcome.healthy) {
          continue;  // the usual end of a long watch: pick up where it stopped
        }
        break;
      case WatchEnd::kGone:
        need_list = true;
        // A re-list is the cure for a compacted resourceVersion, so it runs at once; but if the
        // watch right after one is already too old, something else is wrong: pace the lists.
        if (!recovering) {
          recovering = true;
          continue;
        }
        break;
      case WatchEnd::kFailed:
        break;
    }
    if (!sleepUnlessStopped(clock_, stop, backoff.next())) {
      return;
    }
  }
}

Status Reflector::listAndReplace(const std::stop_token& stop) {
  // The first list may come from the API server's watch cache ("0": any version), as client-go's
  // first list does: one response from memory instead of pages read from etcd one after another
  // (at 30,000 objects, seconds instead of most of a minute). The watch that follows delivers
  // whatever that snapshot had not seen yet. A re-list follows a watch that failed or fell too
  // far behind, so it reads the current state.
  const std::string resource_version = synced_.load() ? "" : "0";
  KF_TRY(list, listPaged(stop, resource_version));
  if (stop.stop_requested()) {
    return makeError(Reason::kCancelled, "reflector stopped during list");
  }
  std::vector<ObjectPtr> objects;
  objects.reserve(list.items.size());
  for (Json& item : list.items) {
    objects.push_back(makeObject(std::move(item)));
  }
  sink_.replace(std::move(objects), list.resource_version);
  setResourceVersion(list.resource_version);
  synced_.store(true);
  return boost::outcome_v2::success();
}

Result<ObjectList> Reflector::listPaged(const std::stop_token& stop,
                                        const std::string& resource_version) {
  Result<ObjectList> paged = listPages(stop, options_.page_size, resource_version);
  if (!paged && isGone(paged.error()) && options_.page_size > 0) {
    // The snapshot behind a continue token was compacted mid-way. One unpaged list is a single
    // consistent read, at the cost of one large response.
    spdlog::info("reflector {}: continue token expired, listing without paging", options_.name);
    return listPages(stop, 0, "");
  }
  return paged;
}

Result<ObjectList> Reflector::listPages(const std::stop_token& stop, std::int64_t limit,
                                        const std::string& resource_version) {
  ListOptions options;
  options.resource_version = resource_version;
  options.limit = limit;
  ObjectList all;
  bool first = true;
  while (true) {
    if (stop.stop_requested()) {
      return makeError(Reason::kCancelled, "reflector stopped during list");
    }
    KF_TRY(page, lister_watcher_.list(options));
    if (first) {  // every page of a paged list belongs to the first page's snapshot
      all.resource_version = page.resource_version;
      first = false;
    }
    all.items.insert(all.items.end(), std::make_move_iterator(page.items.begin()),
                     std::make_move_iterator(page.items.end()));
    if (page.continue_token.empty()) {
      return all;
    }
    options.continue_token = page.continue_token;
    options.resource_version.clear();  // the token names the snapshot; the server refuses both
  }
}

Reflector::WatchOutcome Reflector::watchOnce(const std::stop_token& stop) {
  const SteadyTime opened = clock_.now();
  Result<WatchPtr> opened_watch = lister_watcher_.watch(watchOptions());
  if (!opened_watch) {
    if (isGone(opened_watch.error())) {
      return {WatchEnd::kGone, false};
    }
    spdlog::warn("reflector {}: watch failed: {}", options_.name, opened_watch.error().describe());
    return {WatchEnd::kFailed, false};
  }
  WatchPtr watch = std::move(opened_watch).value();
  // Destroyed before `watch`; runs at once if stop was requested already.
  std::stop_callback stopper(stop, [&watch] { watch->stop(); });

  bool got_event = false;
  while (true) {
    Result<std::optional<WatchEvent>> next = watch->next();
    if (stop.stop_requested()) {
      return {WatchEnd::kStopped, got_event};
    }
    const bool healthy = got_event || clock_.now() - opened >= options_.healthy_watch;
    if (!next) {
      spdlog::warn("reflector {}: watch stream broke: {}", options_.name, next.error().describe());
      return {WatchEnd::kFailed, healthy};
    }
    if (!next.value()) {
      return {WatchEnd::kClosed, healthy};
    }
    if (std::optional<WatchEnd> end = applyEvent(std::move(*next.value()))) {
      return {*end, healthy};
    }
    got_event = true;
  }
}

std::optional<Reflector::WatchEnd> Reflector::applyEvent(WatchEvent event) {
  if (event.type == WatchEventType::kError) {
    if (isGoneStatus(event.object)) {
      spdlog::info("reflector {}: watch too old, re-listing: {}", options_.name,
                   statusMessage(event.object));
      return WatchEnd::kGone;
    }
    spdlog::warn("reflector {}: watch error: {}", options_.name, statusMessage(event.object));
    return WatchEnd::kFailed;
  }
  std::string resource_version = objectResourceVersion(event.object);
  if (event.type != WatchEventType::kBookmark) {
    ObjectPtr object = makeObject(std::move(event.object));
    switch (event.type) {
      case WatchEventType::kAdded:
        sink_.added(std::move(object));
        break;
      case WatchEventType::kModified:
        sink_.modified(std::move(object));
        break;
      case WatchEventType::kDeleted:
        sink_.deleted(std::move(object));
        break;
      default:
        break;
    }
  }
  if (!resource_version.empty()) {
    setResourceVersion(std::move(resource_version));
  }
  return std::nullopt;
}

ListOptions Reflector::watchOptions() {
  using std::chrono::seconds;
  ListOptions options;
  options.allow_watch_bookmarks = true;
  const auto min_seconds = std::chrono::duration_cast<seconds>(options_.min_watch_timeout).count();
  const auto max_seconds = std::chrono::duration_cast<seconds>(options_.max_watch_timeout).count();
  MutexLock lock(mu_);
  options.resource_version = resource_version_;
  // Spread out so that many watches opened together do not all expire (and reconnect) together.
  std::uniform_int_distribution<std::int64_t> spread(min_seconds,
                                                     std::max(min_seconds, max_seconds));
  options.timeout_seconds = spread(random_);
  return options;
}

void Reflector::setResourceVersion(std::string resource_version) {
  MutexLock lock(mu_);
  resource_version_ = std::move(resource_version);
}

}  // namespace kf
