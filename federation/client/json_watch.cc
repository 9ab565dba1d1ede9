#include "federation/client/json_watch.h"

#include <array>
#include <atomic>
#include <string>

#include "federation/client/json_depth.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {
namespace {

std::optional<WatchEventType> eventTypeOf(const std::string& type) {
  if (type == "ADDED") return WatchEventType::kAdded;
  if (type == "MODIFIED") return WatchEventType::kModified;
  if (type == "DELETED") return WatchEventType::kDeleted;
  if (type == "BOOKMARK") return WatchEventType::kBookmark;
  if (type == "ERROR") return WatchEventType::kError;
  return std::nullopt;
}

// The stream and what was read of it, shared with the reads pending on the I/O threads: a watch
// destroyed while consumed is stopped, and its last read still finds all this.
struct WatchState {
  WatchState(ResponseStreamPtr s, JsonWatchOptions o)
      : stream(std::move(s)), options(std::move(o)), idle_timeout(options.idle_timeout) {}

  // The next complete line as an event; nullopt when no complete line is pending. A line over
  // the limit is an error as soon as that many bytes of it are pending, complete or not.
  std::optional<Result<WatchEvent>> takeEvent() {
    while (true) {
      const auto newline = pending.find('\n', scanned);
      const std::size_t line_size = newline == std::string::npos ? pending.size() : newline;
      if (line_size > options.max_event_bytes) return lineTooLong();
      if (newline == std::string::npos) {
        scanned = pending.size();
        return std::nullopt;
      }
      std::string line = pending.substr(0, newline);
      pending.erase(0, newline + 1);
      scanned = 0;
      if (line.find_first_not_of(" \r\t") != std::string::npos) return decodeWatchEvent(line);
    }
  }

  ApiError lineTooLong() const {
    return makeError(Reason::kBadResponse,
                     options.source + ": a watch event line is longer than " +
                         std::to_string(options.max_event_bytes) +
                         " bytes, the limit on one event (max_watch_event_bytes); the server is "
                         "broken or hostile, or the limit is too low for its objects");
  }

  // Hands a read's outcome to the consumer; false once the watch ended.
  bool consumeRead(Result<std::size_t> read) {
    if (!read) {
      return end(read.error().reason == Reason::kCancelled ? Status(boost::outcome_v2::success())
                                                           : Status(read.error()));
    }
    if (read.value() == 0) return end(boost::outcome_v2::success());  // the server ended it
    pending.append(buffer.data(), read.value());
    while (!stopped) {
      std::optional<Result<WatchEvent>> event = takeEvent();
      if (!event) return true;
      if (!*event) {
        stream->cancel();
        return end(event->error());
      }
      consumer.on_event(std::move(event->value()));
    }
    return end(boost::outcome_v2::success());
  }

  bool end(Status status) {
    WatchConsumer done = std::move(consumer);
    consumer = {};
    if (done.on_end) done.on_end(std::move(status));
    return false;
  }

  // Reads until the watch ends. A read that completes at once (a stream at hand) is handled by
  // this loop rather than by its callback, so the stack stays flat.
  static void readUntilEnd(const std::shared_ptr<WatchState>& self) {
    while (true) {
      struct Handoff {
        Mutex mu;
        bool initiator_returned KF_GUARDED_BY(mu) = false;
        std::optional<Result<std::size_t>> read KF_GUARDED_BY(mu);
      };
      auto handoff = std::make_shared<Handoff>();
      self->stream->readAsync(self->buffer.data(), self->buffer.size(), self->idle_timeout,
                              [self, handoff](Result<std::size_t> read) {
                                {
                                  MutexLock lock(handoff->mu);
                                  if (!handoff->initiator_returned) {
                                    handoff->read = std::move(read);
                                    return;
                                  }
                                }
                                if (self->consumeRead(std::move(read))) readUntilEnd(self);
                              });
      Result<std::size_t> read = std::size_t{0};
      {
        MutexLock lock(handoff->mu);
        handoff->initiator_returned = true;
        if (!handoff->read) return;  // its callback goes on, on an I/O thread
        read = std::move(*handoff->read);
      }
      if (!self->consumeRead(std::move(read))) return;
    }
  }

  ResponseStreamPtr stream;
  const JsonWatchOptions options;
  const std::optional<std::chrono::milliseconds> idle_timeout;
  std::string pending;      // bytes received but not yet returned as events
  std::size_t scanned = 0;  // prefix of pending known to hold no newline
  std::array<char, 16 * 1024> buffer{};
  WatchConsumer consumer;  // only touched by the one read in progress
  std::atomic<bool> stopped{false};
};

class JsonWatch final : public Watch {
 public:
  JsonWatch(ResponseStreamPtr stream, JsonWatchOptions options)
      : state_(std::make_shared<WatchState>(std::move(stream), std::move(options))) {}
  ~JsonWatch() override { stop(); }
  JsonWatch(const JsonWatch&) = delete;
  JsonWatch& operator=(const JsonWatch&) = delete;

  Result<std::optional<WatchEvent>> next() override {
    WatchState& state = *state_;
    while (true) {
      if (state.stopped) return std::optional<WatchEvent>();
      if (std::optional<Result<WatchEvent>> event = state.takeEvent()) {
        KF_TRY(decoded, std::move(*event));
        return std::optional<WatchEvent>(std::move(decoded));
      }
      auto received =
          state.stream->read(state.buffer.data(), state.buffer.size(), state.idle_timeout);
      if (!received) {
        if (received.error().reason == Reason::kCancelled) return std::optional<WatchEvent>();
        return received.error();
      }
      if (received.value() == 0) return std::optional<WatchEvent>();  // the server ended it
      state.pending.append(state.buffer.data(), received.value());
    }
  }

  void consume(WatchConsumer consumer) override {
    state_->consumer = std::move(consumer);
    // A copy: the consumer may destroy this watch once on_end came, even within this call.
    const std::shared_ptr<WatchState> state = state_;
    WatchState::readUntilEnd(state);
  }

  void stop() override {
    state_->stopped = true;
    state_->stream->cancel();
  }

 private:
  std::shared_ptr<WatchState> state_;
};

}  // namespace

Result<WatchEvent> decodeWatchEvent(std::string_view line) {
  // The parser takes a NUL byte for the end of its input (see list_decoder.cc).
  if (line.find('\0') != std::string_view::npos) {
    return makeError(Reason::kBadResponse, "a watch event is not JSON: it holds a NUL byte");
  }
  if (nestsDeeperThan(line)) {
    return makeError(Reason::kBadResponse, "a watch event nests deeper than " +
                                               std::to_string(kMaxJsonDepth) +
                                               " levels, more than an API server stores");
  }
  Json decoded = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!decoded.is_object() || !decoded.contains("type") || !decoded["type"].is_string() ||
      !decoded.contains("object")) {
    return makeError(Reason::kBadResponse, "a watch event is not {\"type\", \"object\"} JSON");
  }
  const auto type = eventTypeOf(decoded["type"].get<std::string>());
  if (!type) {
    return makeError(Reason::kBadResponse,
                     "unknown watch event type \"" + decoded["type"].get<std::string>() + "\"");
  }
  return WatchEvent{*type, std::move(decoded["object"])};
}

WatchPtr makeJsonWatch(ResponseStreamPtr stream, JsonWatchOptions options) {
  return std::make_unique<JsonWatch>(std::move(stream), std::move(options));
}

}  // namespace kf
