#pragma once
// A scripted ListerWatcher for informer tests. The test queues list results and watch failures,
// feeds each opened watch through its stream, and reads back every ListOptions it was called with.
// The script is shared, so a test can keep watching it after the informer that owns the
// ListerWatcher is gone.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "federation/client/watch.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

// Polls `pred` until it holds or `timeout` passes: how a test waits for another thread to catch
// up, without guessing how long that takes.
template <class Pred>
bool waitUntil(Pred pred, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// One opened watch, as the test drives it.
class FakeWatchStream {
 public:
  void send(WatchEventType type, Json object) { push(Item{WatchEvent{type, std::move(object)}}); }
  // The next read fails as a broken connection would.
  void fail(ApiError error) { push(Item{std::nullopt, std::move(error)}); }
  // The server ends the stream.
  void close() { push(Item{}); }

  // Whether the consumer called Watch::stop().
  bool stopped() const {
    MutexLock lock(mu_);
    return stopped_;
  }

  Result<std::optional<WatchEvent>> next() {
    MutexLock lock(mu_);
    while (items_.empty() && !stopped_ && !closed_) {
      cv_.wait(lock.native());
    }
    if (stopped_ || closed_) {
      return std::optional<WatchEvent>();
    }
    Item item = std::move(items_.front());
    items_.pop_front();
    if (item.error) {
      return *item.error;
    }
    if (!item.event) {
      closed_ = true;
      return std::optional<WatchEvent>();
    }
    return std::optional<WatchEvent>(std::move(*item.event));
  }

  void stop() {
    {
      MutexLock lock(mu_);
      stopped_ = true;
    }
    cv_.notify_all();
    drain();
  }

  // Watch::consume: what is queued is delivered at once, later items on the thread that sends
  // them (or stops the stream), one call at a time.
  void consume(WatchConsumer consumer) {
    {
      MutexLock lock(mu_);
      consumer_ = std::move(consumer);
    }
    drain();
  }

 private:
  struct Item {
    std::optional<WatchEvent> event;
    std::optional<ApiError> error;
  };

  void push(Item item) {
    {
      MutexLock lock(mu_);
      items_.push_back(std::move(item));
    }
    cv_.notify_all();
    drain();
  }

  // Hands queued items to the consumer until none is left. A call made while another delivers
  // (from the consumer itself, or another thread) leaves its items to that one.
  void drain() {
    {
      MutexLock lock(mu_);
      if (draining_ || !consumer_.on_end) return;
      draining_ = true;
    }
    while (true) {
      std::optional<WatchEvent> event;
      std::optional<Status> end;
      WatchConsumer consumer;
      {
        MutexLock lock(mu_);
        if (stopped_ || closed_) {
          end = Status(boost::outcome_v2::success());
        } else if (items_.empty()) {
          draining_ = false;
          return;
        } else {
          Item item = std::move(items_.front());
          items_.pop_front();
          if (item.error) {
            end = Status(*item.error);
          } else if (!item.event) {
            closed_ = true;
            end = Status(boost::outcome_v2::success());
          } else {
            event = std::move(item.event);
          }
        }
        if (end) consumer = std::exchange(consumer_, WatchConsumer{});
      }
      if (event) {
        consumer_.on_event(std::move(*event));  // only the drainer touches it
        continue;
      }
      consumer.on_end(*end);
      MutexLock lock(mu_);
      draining_ = false;  // no consumer is left: later drains return at once
      return;
    }
  }

  mutable Mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> items_ KF_GUARDED_BY(mu_);
  bool stopped_ KF_GUARDED_BY(mu_) = false;
  bool closed_ KF_GUARDED_BY(mu_) = false;
  bool draining_ KF_GUARDED_BY(mu_) = false;
  WatchConsumer consumer_;  // set under mu_, then called only by the one draining
};

class ListWatchScript {
 public:
  // Answers to list() calls, in order. Once they run out, list() fails with ServiceUnavailable.
  void pushList(Result<ObjectList> result) {
    MutexLock lock(mu_);
    lists_.push_back(std::move(result));
  }
  // The next watch() call fails with `error` instead of opening a stream.
  void pushWatchError(ApiError error) {
    MutexLock lock(mu_);
    watch_errors_.push_back(std::move(error));
  }

  std::vector<ListOptions> listCalls() const {
    MutexLock lock(mu_);
    return list_calls_;
  }
  std::vector<ListOptions> watchCalls() const {
    MutexLock lock(mu_);
    return watch_calls_;
  }
  std::size_t listCount() const {
    MutexLock lock(mu_);
    return list_calls_.size();
  }
  std::size_t watchCount() const {
    MutexLock lock(mu_);
    return watch_calls_.size();
  }
  // The stream opened by the index-th watch() call; null if that call failed or has not happened.
  std::shared_ptr<FakeWatchStream> stream(std::size_t index) const {
    MutexLock lock(mu_);
    return index < streams_.size() ? streams_[index] : nullptr;
  }
  // The stream of the most recent watch() call.
  std::shared_ptr<FakeWatchStream> lastStream() const {
    MutexLock lock(mu_);
    return streams_.empty() ? nullptr : streams_.back();
  }
  bool listerWatcherDestroyed() const {
    MutexLock lock(mu_);
    return destroyed_;
  }

  Result<ObjectList> list(const ListOptions& options) {
    MutexLock lock(mu_);
    list_calls_.push_back(options);
    if (lists_.empty()) {
      return makeError(Reason::kServiceUnavailable, "no scripted list");
    }
    Result<ObjectList> result = std::move(lists_.front());
    lists_.pop_front();
    return result;
  }

  Result<WatchPtr> watch(const ListOptions& options);

  void markDestroyed() {
    MutexLock lock(mu_);
    destroyed_ = true;
  }

 private:
  mutable Mutex mu_;
  std::deque<Result<ObjectList>> lists_ KF_GUARDED_BY(mu_);
  std::deque<ApiError> watch_errors_ KF_GUARDED_BY(mu_);
  std::vector<ListOptions> list_calls_ KF_GUARDED_BY(mu_);
  std::vector<ListOptions> watch_calls_ KF_GUARDED_BY(mu_);
  std::vector<std::shared_ptr<FakeWatchStream>> streams_ KF_GUARDED_BY(mu_);
  bool destroyed_ KF_GUARDED_BY(mu_) = false;
};

class FakeWatch final : public Watch {
 public:
  explicit FakeWatch(std::shared_ptr<FakeWatchStream> stream) : stream_(std::move(stream)) {}
  ~FakeWatch() override { stream_->stop(); }
  Result<std::optional<WatchEvent>> next() override { return stream_->next(); }
  void consume(WatchConsumer consumer) override { stream_->consume(std::move(consumer)); }
  void stop() override { stream_->stop(); }

 private:
  std::shared_ptr<FakeWatchStream> stream_;
};

inline Result<WatchPtr> ListWatchScript::watch(const ListOptions& options) {
  MutexLock lock(mu_);
  watch_calls_.push_back(options);
  if (!watch_errors_.empty()) {
    ApiError error = std::move(watch_errors_.front());
    watch_errors_.pop_front();
    streams_.push_back(nullptr);
    return error;
  }
  auto stream = std::make_shared<FakeWatchStream>();
  streams_.push_back(stream);
  return WatchPtr(std::make_unique<FakeWatch>(stream));
}

class FakeListerWatcher final : public ListerWatcher {
 public:
  explicit FakeListerWatcher(
      std::shared_ptr<ListWatchScript> script = std::make_shared<ListWatchScript>())
      : script_(std::move(script)) {}
  ~FakeListerWatcher() override { script_->markDestroyed(); }

  ListWatchScript& script() const { return *script_; }

  Result<ObjectList> list(const ListOptions& options) override { return script_->list(options); }
  Result<WatchPtr> watch(const ListOptions& options) override { return script_->watch(options); }

 private:
  std::shared_ptr<ListWatchScript> script_;
};

// Objects and lists, small enough to write inline in a test.
inline Json makeJson(const std::string& ns, const std::string& name, const std::string& rv,
                     Json labels = Json::object()) {
  Json metadata{{"name", name}, {"resourceVersion", rv}, {"labels", std::move(labels)}};
  if (!ns.empty()) {
    metadata["namespace"] = ns;
  }
  return Json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", std::move(metadata)}};
}

inline ObjectList makeList(const std::string& rv, std::vector<Json> items,
                           std::string continue_token = "") {
  ObjectList list;
  list.resource_version = rv;
  list.items = std::move(items);
  list.continue_token = std::move(continue_token);
  return list;
}

inline Json bookmark(const std::string& rv) {
  return Json{{"kind", "ConfigMap"}, {"metadata", {{"resourceVersion", rv}}}};
}

inline Json goneStatus() {
  return Json{{"kind", "Status"},
              {"status", "Failure"},
              {"code", 410},
              {"reason", "Expired"},
              {"message", "too old resource version"}};
}

}  // namespace kf::test
