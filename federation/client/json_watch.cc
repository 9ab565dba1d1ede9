#include "federation/client/json_watch.h"

#include <atomic>
#include <string>

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

class JsonWatch final : public Watch {
 public:
  JsonWatch(ResponseStreamPtr stream, std::optional<std::chrono::milliseconds> idle_timeout)
      : stream_(std::move(stream)), idle_timeout_(idle_timeout) {}

  Result<std::optional<WatchEvent>> next() override {
    while (true) {
      if (stopped_) return std::optional<WatchEvent>();
      if (const auto newline = pending_.find('\n', scanned_); newline != std::string::npos) {
        std::string line = pending_.substr(0, newline);
        pending_.erase(0, newline + 1);
        scanned_ = 0;
        if (line.find_first_not_of(" \r\t") == std::string::npos) continue;
        KF_TRY(event, decodeWatchEvent(line));
        return std::optional<WatchEvent>(std::move(event));
      }
      scanned_ = pending_.size();
      char buffer[16 * 1024];
      auto received = stream_->read(buffer, sizeof(buffer), idle_timeout_);
      if (!received) {
        if (received.error().reason == Reason::kCancelled) return std::optional<WatchEvent>();
        return received.error();
      }
      if (received.value() == 0) return std::optional<WatchEvent>();  // the server ended it
      pending_.append(buffer, received.value());
    }
  }

  void stop() override {
    stopped_ = true;
    stream_->cancel();
  }

 private:
  ResponseStreamPtr stream_;
  std::optional<std::chrono::milliseconds> idle_timeout_;
  std::string pending_;      // bytes received but not yet returned as events
  std::size_t scanned_ = 0;  // prefix of pending_ known to hold no newline
  std::atomic<bool> stopped_{false};
};

}  // namespace

Result<WatchEvent> decodeWatchEvent(std::string_view line) {
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

WatchPtr makeJsonWatch(ResponseStreamPtr stream,
                       std::optional<std::chrono::milliseconds> idle_timeout) {
  return std::make_unique<JsonWatch>(std::move(stream), idle_timeout);
}

}  // namespace kf
