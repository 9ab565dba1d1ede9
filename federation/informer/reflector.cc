#include "federation/informer/reflector.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

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
      random_(std::random_device{}()),
      backoff_(options_.initial_backoff, options_.max_backoff),
      lane_(options_.pool != nullptr ? *options_.pool : memberIoPool()) {}

Reflector::~Reflector() { stop(); }

void Reflector::start() {
  MutexLock lock(mu_);
  if (started_) {
    return;
  }
  started_ = true;
  scheduleStep(Duration::zero());
}

void Reflector::stop() {
  TimerHandlePtr retry_timer;
  Watch* watch = nullptr;
  {
    MutexLock lock(mu_);
    started_ = true;  // a stopped reflector stays stopped
    stopping_ = true;
    retry_timer = std::move(retry_timer_);
    // No step installs a watch once stopping_ is set, so this one stays until the end here.
    watch = watch_.get();
  }
  retry_timer.reset();  // waits for a firing callback, which only hands a step to the lane
  if (watch != nullptr) {
    watch->stop();
  }
  lane_.close();  // drops a queued step, waits for a running one (a list in flight)
  WatchPtr ended;
  {
    MutexLock lock(mu_);
    watch_ended_cv_.wait(lock.native(), [this]() KF_REQUIRES(mu_) { return !watching_; });
    ended = std::move(watch_);
  }
}

std::string Reflector::lastSyncResourceVersion() const {
  MutexLock lock(mu_);
  return resource_version_;
}

bool Reflector::stopping() const {
  MutexLock lock(mu_);
  return stopping_;
}

void Reflector::scheduleStep(Duration delay) {
  if (stopping_) {
    return;
  }
  auto submit = [this] {
    lane_.submit([this](bool cancelled) {
      if (!cancelled) step();
    });
  };
  if (delay <= Duration::zero()) {
    submit();
    return;
  }
  retry_timer_ = clock_.runAfter(delay, submit);
}

void Reflector::step() {
  if (stopping()) {
    return;
  }
  bool need_list = false;
  {
    MutexLock lock(mu_);
    need_list = need_list_;
  }
  if (need_list) {
    Status listed = listAndReplace();
    MutexLock lock(mu_);
    if (!listed) {
      if (!stopping_) {
        spdlog::warn("reflector {}: list failed: {}", options_.name, listed.error().describe());
      }
      scheduleStep(backoff_.next());
      return;
    }
    need_list_ = false;
  }

  Result<WatchPtr> opened = lister_watcher_.watch(watchOptions());
  if (!opened) {
    const bool gone = isGone(opened.error());
    if (!gone && !stopping()) {
      spdlog::warn("reflector {}: watch failed: {}", options_.name, opened.error().describe());
    }
    MutexLock lock(mu_);
    followWatch(gone ? WatchEnd::kGone : WatchEnd::kFailed, false);
    return;
  }
  if (Watch* watch = beginWatch(std::move(opened).value())) {
    // Outside the lock: a stream at hand delivers (and ends) right inside consume().
    watch->consume({.on_event = [this](WatchEvent event) { onEvent(std::move(event)); },
                    .on_end = [this](const Status& status) { onWatchEnd(status); }});
  }
}

Watch* Reflector::beginWatch(WatchPtr watch) {
  WatchPtr previous;  // ended before this step was scheduled; destroyed after the lock
  MutexLock lock(mu_);
  if (stopping_) {
    return nullptr;
  }
  previous = std::move(watch_);
  watch_ = std::move(watch);
  watching_ = true;
  watch_opened_ = clock_.now();
  watch_got_event_ = false;
  watch_error_.reset();
  return watch_.get();
}

void Reflector::onEvent(WatchEvent event) {
  if (event.type == WatchEventType::kError) {
    const bool gone = isGoneStatus(event.object);
    if (gone) {
      spdlog::info("reflector {}: watch too old, re-listing: {}", options_.name,
                   statusMessage(event.object));
    } else {
      spdlog::warn("reflector {}: watch error: {}", options_.name, statusMessage(event.object));
    }
    Watch* watch = nullptr;
    {
      MutexLock lock(mu_);
      watch_error_ = gone ? WatchEnd::kGone : WatchEnd::kFailed;
      watch = watch_.get();  // replaced only by a step, which waits for on_end
    }
    watch->stop();  // no further event comes; on_end follows
    return;
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
  MutexLock lock(mu_);
  watch_got_event_ = true;
  if (!resource_version.empty()) {
    resource_version_ = std::move(resource_version);
  }
}

void Reflector::onWatchEnd(const Status& status) {
  MutexLock lock(mu_);
  WatchEnd end = watch_error_.value_or(WatchEnd::kClosed);
  if (!status && !stopping_) {
    spdlog::warn("reflector {}: watch stream broke: {}", options_.name, status.error().describe());
    end = WatchEnd::kFailed;
  }
  const bool healthy = watch_got_event_ || clock_.now() - watch_opened_ >= options_.healthy_watch;
  followWatch(end, healthy);
  // Last, under the lock: once stop() sees this, it may destroy the reflector.
  watching_ = false;
  watch_ended_cv_.notify_all();
}

void Reflector::followWatch(WatchEnd end, bool healthy) {
  if (healthy) {
    backoff_.reset();
    recovering_ = false;
  }
  switch (end) {
    case WatchEnd::kClosed:
      if (healthy) {
        scheduleStep(Duration::zero());  // the usual end of a long watch: pick up where it stopped
        return;
      }
      break;
    case WatchEnd::kGone:
      need_list_ = true;
      // A re-list is the cure for a compacted resourceVersion, so it runs at once; but if the
      // watch right after one is already too old, something else is wrong: pace the lists.
      if (!recovering_) {
        recovering_ = true;
        scheduleStep(Duration::zero());
        return;
      }
      break;
    case WatchEnd::kFailed:
      break;
  }
  scheduleStep(backoff_.next());
}

Status Reflector::listAndReplace() {
  // The first list may come from the API server's watch cache ("0": any version), as client-go's
  // first list does: one response from memory instead of pages read from etcd one after another
  // (at 30,000 objects, seconds instead of most of a minute). The watch that follows delivers
  // whatever that snapshot had not seen yet. A re-list follows a watch that failed or fell too
  // far behind, so it reads the current state.
  const std::string resource_version = synced_.load() ? "" : "0";
  Store::Replacement content = sink_.beginReplace();
  KF_TRY(listed_version, listPaged(resource_version, content));
  if (stopping()) {
    return makeError(Reason::kCancelled, "reflector stopped during list");
  }
  sink_.replace(std::move(content), listed_version);
  setResourceVersion(listed_version);
  synced_.store(true);
  return boost::outcome_v2::success();
}

Result<std::string> Reflector::listPaged(const std::string& resource_version,
                                         Store::Replacement& content) {
  Result<std::string> paged = listPages(options_.page_size, resource_version, content);
  if (!paged && isGone(paged.error()) && options_.page_size > 0) {
    // The snapshot behind a continue token was compacted mid-way. One unpaged list is a single
    // consistent read, at the cost of one large response.
    spdlog::info("reflector {}: continue token expired, listing without paging", options_.name);
    content = sink_.beginReplace();
    return listPages(0, "", content);
  }
  return paged;
}

// Each item goes into `content` as it is decoded, so the list is never held as trees.
Result<std::string> Reflector::listPages(std::int64_t limit, const std::string& resource_version,
                                         Store::Replacement& content) {
  ListOptions options;
  options.resource_version = resource_version;
  options.limit = limit;
  std::optional<std::string> snapshot_version;
  const ListItemSink add = [&content](Json item) { content.add(item); };
  while (true) {
    if (stopping()) {
      return makeError(Reason::kCancelled, "reflector stopped during list");
    }
    KF_TRY(page, lister_watcher_.listEach(options, add));
    if (!snapshot_version) {  // every page of a paged list belongs to the first page's snapshot
      snapshot_version = page.resource_version;
    }
    if (page.continue_token.empty()) {
      return *snapshot_version;
    }
    options.continue_token = page.continue_token;
    options.resource_version.clear();  // the token names the snapshot; the server refuses both
  }
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
