#pragma once
// Keeps a sink in step with the server: list (paged; the first from the server's cache), replace
// the sink's content, then watch from the list's resourceVersion and apply each event, re-watching
// or re-listing as the stream ends or falls too far behind. Runs on its own thread until stopped.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "federation/client/watch.h"
#include "federation/informer/store.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

// Where a Reflector puts what it learns. Called from the reflector's thread only.
class ReflectorSink {
 public:
  virtual ~ReflectorSink() = default;
  // The complete content as of `resource_version`: anything not in `objects` is gone.
  virtual void replace(std::vector<ObjectPtr> objects, std::string resource_version) = 0;
  virtual void added(ObjectPtr object) = 0;
  virtual void modified(ObjectPtr object) = 0;
  // `object` is the final state the server reported.
  virtual void deleted(ObjectPtr object) = 0;
};

// The plain sink: a Store, with no one to notify.
class StoreSink final : public ReflectorSink {
 public:
  explicit StoreSink(Store& store) : store_(store) {}
  void replace(std::vector<ObjectPtr> objects, std::string resource_version) override {
    store_.replace(std::move(objects), std::move(resource_version));
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
};

class Reflector {
 public:
  // All three must outlive the Reflector.
  Reflector(ListerWatcher& lister_watcher, ReflectorSink& sink, Clock& clock,
            ReflectorOptions options = {});
  ~Reflector();
  Reflector(const Reflector&) = delete;
  Reflector& operator=(const Reflector&) = delete;

  // Starts the thread. A second call, or a call after stop(), does nothing.
  void start() KF_EXCLUDES(mu_);
  // Interrupts a blocked watch or backoff wait and joins the thread. A list() in flight is waited
  // for (the ListerWatcher offers no way to cancel it). Idempotent.
  void stop() KF_EXCLUDES(mu_);

  // True once the first list has been handed to the sink.
  bool hasSynced() const { return synced_.load(); }
  // The resourceVersion of the last list, event or bookmark applied.
  std::string lastSyncResourceVersion() const KF_EXCLUDES(mu_);

 private:
  enum class WatchEnd { kStopped, kClosed, kGone, kFailed };
  struct WatchOutcome {
    WatchEnd end;
    bool healthy;
  };

  void run(const std::stop_token& stop);
  // One full list handed to the sink; an error if no complete list could be read.
  Status listAndReplace(const std::stop_token& stop);
  Result<ObjectList> listPaged(const std::stop_token& stop, const std::string& resource_version);
  Result<ObjectList> listPages(const std::stop_token& stop, std::int64_t limit,
                               const std::string& resource_version);
  // One watch from the last resourceVersion, consumed until it ends.
  WatchOutcome watchOnce(const std::stop_token& stop);
  // Applies one event; kGone/kFailed for an ERROR event, nullopt otherwise.
  std::optional<WatchEnd> applyEvent(WatchEvent event);
  ListOptions watchOptions() KF_EXCLUDES(mu_);
  void setResourceVersion(std::string resource_version) KF_EXCLUDES(mu_);

  ListerWatcher& lister_watcher_;
  ReflectorSink& sink_;
  Clock& clock_;
  const ReflectorOptions options_;

  mutable Mutex mu_;
  std::string resource_version_ KF_GUARDED_BY(mu_);
  bool started_ KF_GUARDED_BY(mu_) = false;
  std::mt19937_64 random_ KF_GUARDED_BY(mu_);
  std::jthread thread_ KF_GUARDED_BY(mu_);
  std::atomic<bool> synced_{false};
};

}  // namespace kf
