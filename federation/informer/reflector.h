#pragma once
// Keeps a sink in step with the server: list (paged; the first from the server's cache), replace
// the sink's content, then watch from the list's resourceVersion and apply each event, re-watching
// or re-listing as the stream ends or falls too far behind.
//
// A reflector owns no thread. Its list and the opening of each watch block, so they run as one
// lane of a shared task pool; the open watch is then read by the client's I/O threads, which
// apply its events; waits between attempts are clock timers. A thousand reflectors cost no more
// threads than one.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "federation/client/watch.h"
#include "federation/informer/store.h"
#include "federation/runtime/backoff.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

// Where a Reflector puts what it learns: one call at a time, from a pool or I/O thread.
class ReflectorSink {
 public:
  virtual ~ReflectorSink() = default;
  // An empty content for the next replace(), which the reflector fills as a list's items arrive.
  virtual Store::Replacement beginReplace() = 0;
  // The complete content as of `resource_version`: anything not in `content` is gone.
  virtual void replace(Store::Replacement content, std::string resource_version) = 0;
  virtual void added(ObjectPtr object) = 0;
  virtual void modified(ObjectPtr object) = 0;
  // `object` is the final state the server reported.
  virtual void deleted(ObjectPtr object) = 0;
};

// The plain sink: a Store, with no one to notify.
class StoreSink final : public ReflectorSink {
 public:
  explicit StoreSink(Store& store) : store_(store) {}
  Store::Replacement beginReplace() override { return store_.beginReplace(); }
  void replace(Store::Replacement content, std::string resource_version) override {
    store_.replace(std::move(content), std::move(resource_version));
  }
  void added(ObjectPtr object) override { store_.add(std::move(object)); }
  void modified(ObjectPtr object) override { store_.update(std::move(object)); }
  void deleted(ObjectPtr object) override { store_.remove(objectKey(*object)); }

 private:
  Store& store_;
};

struct ReflectorOptions {
  std::string name;              // for log lines: "cluster1/apps/v1/deployments"
  std::int64_t page_size = 500;  // list limit; 0 lists in one response
  Duration min_watch_timeout = std::chrono::minutes(5);
  Duration max_watch_timeout = std::chrono::minutes(10);
  Duration initial_backoff = std::chrono::milliseconds(800);
  Duration max_backoff = std::chrono::seconds(30);
  // A watch that delivered an event, or stayed open this long, counts as healthy: it resets the
  // backoff, and its clean end is followed by an immediate re-watch.
  Duration healthy_watch = std::chrono::seconds(1);
  // Where lists and watch opens run (they block); null: memberIoPool().
  TaskPool* pool = nullptr;
};

class Reflector {
 public:
  // All three must outlive the Reflector.
  Reflector(ListerWatcher& lister_watcher, ReflectorSink& sink, Clock& clock,
            ReflectorOptions options = {});
  ~Reflector();
  Reflector(const Reflector&) = delete;
  Reflector& operator=(const Reflector&) = delete;

  // Starts listing. A second call, or a call after stop(), does nothing.
  void start() KF_EXCLUDES(mu_);
  // Ends the watch, cancels a pending retry and returns once nothing of the reflector runs any
  // more; the sink is not called after. A list() in flight is waited for (the ListerWatcher
  // offers no way to cancel it). Idempotent; not to be called from the sink.
  void stop() KF_EXCLUDES(mu_);

  // True once the first list has been handed to the sink.
  bool hasSynced() const { return synced_.load(); }
  // The resourceVersion of the last list, event or bookmark applied.
  std::string lastSyncResourceVersion() const KF_EXCLUDES(mu_);

 private:
  enum class WatchEnd { kClosed, kGone, kFailed };

  // One attempt, on the lane: the list if one is due, then a watch handed to the I/O threads.
  void step() KF_EXCLUDES(mu_);
  // One full list handed to the sink; an error if no complete list could be read.
  Status listAndReplace() KF_EXCLUDES(mu_);
  // Both fill `content` and return the list's resourceVersion.
  Result<std::string> listPaged(const std::string& resource_version, Store::Replacement& content)
      KF_EXCLUDES(mu_);
  Result<std::string> listPages(std::int64_t limit, const std::string& resource_version,
                                Store::Replacement& content) KF_EXCLUDES(mu_);
  // Makes `watch` the current one, to be consumed; null when the reflector is stopping (the
  // watch is dropped).
  Watch* beginWatch(WatchPtr watch) KF_EXCLUDES(mu_);
  // The consumed watch's callbacks.
  void onEvent(WatchEvent event) KF_EXCLUDES(mu_);
  void onWatchEnd(const Status& status) KF_EXCLUDES(mu_);
  // What follows a watch that ended so: a re-watch, a re-list, at once or after the backoff.
  void followWatch(WatchEnd end, bool healthy) KF_REQUIRES(mu_);
  // The next step, at once (zero) or after `delay` on the clock.
  void scheduleStep(Duration delay) KF_REQUIRES(mu_);
  bool stopping() const KF_EXCLUDES(mu_);
  ListOptions watchOptions() KF_EXCLUDES(mu_);
  void setResourceVersion(std::string resource_version) KF_EXCLUDES(mu_);

  ListerWatcher& lister_watcher_;
  ReflectorSink& sink_;
  Clock& clock_;
  const ReflectorOptions options_;

  mutable Mutex mu_;
  std::condition_variable watch_ended_cv_;
  std::string resource_version_ KF_GUARDED_BY(mu_);
  bool started_ KF_GUARDED_BY(mu_) = false;
  bool stopping_ KF_GUARDED_BY(mu_) = false;
  std::mt19937_64 random_ KF_GUARDED_BY(mu_);
  Backoff backoff_ KF_GUARDED_BY(mu_);
  bool need_list_ KF_GUARDED_BY(mu_) = true;
  // Set by a re-list that cured a stale resourceVersion; cleared by the next healthy watch.
  bool recovering_ KF_GUARDED_BY(mu_) = false;
  TimerHandlePtr retry_timer_ KF_GUARDED_BY(mu_);
  // The watch being consumed, until the next step replaces it (never destroyed from within
  // its own callbacks).
  WatchPtr watch_ KF_GUARDED_BY(mu_);
  bool watching_ KF_GUARDED_BY(mu_) = false;  // watch_ has not called on_end yet
  SteadyTime watch_opened_ KF_GUARDED_BY(mu_);
  bool watch_got_event_ KF_GUARDED_BY(mu_) = false;
  std::optional<WatchEnd> watch_error_ KF_GUARDED_BY(mu_);  // an ERROR event's verdict
  std::atomic<bool> synced_{false};
  TaskLane lane_;  // last: closed first, while everything its steps use still exists
};

}  // namespace kf
