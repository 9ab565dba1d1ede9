#include "federation/client/json_watch.h"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "federation/runtime/thread_annotations.h"

namespace kf {
namespace {

// Delivers the body in the given pieces, then ends.
class ChunkedStream final : public ResponseStream {
 public:
  explicit ChunkedStream(std::deque<std::string> chunks) : chunks_(std::move(chunks)) {}
  int status() const override { return 200; }
  Result<std::size_t> read(char* buffer, std::size_t size,
                           std::optional<std::chrono::milliseconds>) override {
    if (cancelled_) return makeError(Reason::kCancelled, "cancelled");
    if (chunks_.empty()) return std::size_t{0};
    std::string& chunk = chunks_.front();
    const std::size_t n = std::min(size, chunk.size());
    chunk.copy(buffer, n);
    chunk.erase(0, n);
    if (chunk.empty()) chunks_.pop_front();
    return n;
  }
  void cancel() override { cancelled_ = true; }

 private:
  std::deque<std::string> chunks_;
  bool cancelled_ = false;
};

TEST(JsonWatchTest, SplitsEventsAcrossAndWithinChunks) {
  auto watch = makeJsonWatch(std::make_unique<ChunkedStream>(
      std::deque<std::string>{R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})"
                              "\n"
                              R"({"type":"MODIFIED","obj)",
                              R"(ect":{"metadata":{"name":"a","resourceVersion":"2"}}})"
                              "\n\n"
                              R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}})"
                              "\n"}));
  std::vector<WatchEventType> types;
  while (true) {
    auto event = watch->next();
    ASSERT_TRUE(event) << event.error().describe();
    if (!event.value()) break;
    types.push_back(event.value()->type);
  }
  EXPECT_EQ(types, (std::vector<WatchEventType>{WatchEventType::kAdded, WatchEventType::kModified,
                                                WatchEventType::kBookmark}));
}

// What a consumer was given.
struct Consumed {
  Mutex mu;
  std::vector<std::string> names KF_GUARDED_BY(mu);
  std::optional<Status> end KF_GUARDED_BY(mu);
  int calls_after_end KF_GUARDED_BY(mu) = 0;

  WatchConsumer consumer() {
    return {.on_event =
                [this](WatchEvent event) {
                  MutexLock lock(mu);
                  if (end) ++calls_after_end;
                  names.push_back(event.object["metadata"].value("name", "?"));
                },
            .on_end =
                [this](const Status& status) {
                  MutexLock lock(mu);
                  if (end) ++calls_after_end;
                  end = status;
                }};
  }
  bool ended() {
    MutexLock lock(mu);
    return end.has_value();
  }
};

std::string addedLine(const std::string& name) {
  return R"({"type":"ADDED","object":{"metadata":{"name":")" + name + "\"}}}\n";
}

// Verifies that consume() delivers every event of a stream at hand, in order, then a clean end.
TEST(JsonWatchTest, ConsumeDeliversEveryEventThenACleanEnd) {
  auto watch = makeJsonWatch(std::make_unique<ChunkedStream>(std::deque<std::string>{
      addedLine("a") + addedLine("b").substr(0, 9), addedLine("b").substr(9) + addedLine("c")}));
  Consumed consumed;
  watch->consume(consumed.consumer());
  MutexLock lock(consumed.mu);
  EXPECT_EQ(consumed.names, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_TRUE(consumed.end.has_value());
  EXPECT_TRUE(*consumed.end);
  EXPECT_EQ(consumed.calls_after_end, 0);
}

// A stream whose reads complete later, on another thread, as the network's do.
class LaterStream final : public ResponseStream {
 public:
  int status() const override { return 200; }
  Result<std::size_t> read(char*, std::size_t, std::optional<std::chrono::milliseconds>) override {
    return makeError(Reason::kUnknown, "only read asynchronously");
  }
  void readAsync(char* buffer, std::size_t size, std::optional<std::chrono::milliseconds>,
                 std::function<void(Result<std::size_t>)> done) override {
    MutexLock lock(mu_);
    pending_ = Pending{buffer, size, std::move(done)};
  }
  void cancel() override { complete(makeError(Reason::kCancelled, "cancelled")); }

  bool waiting() {
    MutexLock lock(mu_);
    return pending_.has_value();
  }
  // Completes the pending read with `bytes` (which must fit).
  void deliver(const std::string& bytes) {
    std::optional<Pending> pending = take();
    ASSERT_TRUE(pending.has_value());
    ASSERT_LE(bytes.size(), pending->size);
    bytes.copy(pending->buffer, bytes.size());
    pending->done(bytes.size());
  }

 private:
  struct Pending {
    char* buffer;
    std::size_t size;
    std::function<void(Result<std::size_t>)> done;
  };
  std::optional<Pending> take() {
    MutexLock lock(mu_);
    return std::exchange(pending_, std::nullopt);
  }
  void complete(Result<std::size_t> result) {
    if (std::optional<Pending> pending = take()) pending->done(std::move(result));
  }
  Mutex mu_;
  std::optional<Pending> pending_ KF_GUARDED_BY(mu_);
};

// Verifies that a consumed watch holds no thread while it waits: reads completed later, from
// another thread, deliver their events, and stop() ends the watch cleanly.
TEST(JsonWatchTest, ConsumeWaitsWithoutAThreadAndStopEndsItCleanly) {
  auto owned = std::make_unique<LaterStream>();
  LaterStream& stream = *owned;
  auto watch = makeJsonWatch(std::move(owned));
  Consumed consumed;
  watch->consume(consumed.consumer());
  ASSERT_TRUE(stream.waiting());
  std::thread network([&] {
    stream.deliver(addedLine("a").substr(0, 12));
    stream.deliver(addedLine("a").substr(12) + addedLine("b"));
  });
  network.join();
  ASSERT_TRUE(stream.waiting());
  EXPECT_FALSE(consumed.ended());
  watch->stop();
  MutexLock lock(consumed.mu);
  EXPECT_EQ(consumed.names, (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(consumed.end.has_value());
  EXPECT_TRUE(*consumed.end) << consumed.end->error().describe();
}

// Verifies that an undecodable line ends a consumed watch with the decoding error.
TEST(JsonWatchTest, ConsumeEndsWithTheDecodingError) {
  auto watch = makeJsonWatch(
      std::make_unique<ChunkedStream>(std::deque<std::string>{addedLine("a") + "not json\n"}));
  Consumed consumed;
  watch->consume(consumed.consumer());
  MutexLock lock(consumed.mu);
  EXPECT_EQ(consumed.names, (std::vector<std::string>{"a"}));
  ASSERT_TRUE(consumed.end.has_value());
  ASSERT_FALSE(*consumed.end);
  EXPECT_EQ(consumed.end->error().reason, Reason::kBadResponse);
}

TEST(JsonWatchTest, ReportsUndecodableEvent) {
  auto watch = makeJsonWatch(std::make_unique<ChunkedStream>(
      std::deque<std::string>{"{\"type\":\"NOPE\",\"object\":{}}\n"}));
  auto event = watch->next();
  ASSERT_FALSE(event);
  EXPECT_EQ(event.error().reason, Reason::kBadResponse);
}

TEST(JsonWatchTest, StopEndsTheStreamCleanly) {
  auto watch = makeJsonWatch(
      std::make_unique<ChunkedStream>(std::deque<std::string>{"{\"type\":\"ADDED\"", "..."}));
  watch->stop();
  auto event = watch->next();
  ASSERT_TRUE(event);
  EXPECT_FALSE(event.value().has_value());
}

// The JSON parser takes a NUL byte for the end of its input (found by list_decoder_fuzz in the
// list decoder): an event followed by a NUL and garbage decoded as if it were clean.
TEST(JsonWatchTest, ALineWithANulByteIsNotAnEvent) {
  const std::string line = std::string(R"({"type":"ADDED","object":{}})") + std::string("\0x", 2);
  auto event = decodeWatchEvent(line);
  ASSERT_FALSE(event);
  EXPECT_EQ(event.error().reason, Reason::kBadResponse);
}

// Verifies that a line longer than the limit ends a consumed watch with an error naming the
// source and the limit, after the events of the lines before it, even before its newline came.
TEST(JsonWatchTest, ALineOverTheLimitEndsTheWatch) {
  const std::string first = addedLine("a");
  auto watch = makeJsonWatch(
      std::make_unique<ChunkedStream>(std::deque<std::string>{first, std::string(200, ' ')}),
      {.max_event_bytes = first.size() + 10, .source = "API server https://example:6443"});
  Consumed consumed;
  watch->consume(consumed.consumer());
  MutexLock lock(consumed.mu);
  EXPECT_EQ(consumed.names, (std::vector<std::string>{"a"}));
  ASSERT_TRUE(consumed.end.has_value());
  ASSERT_FALSE(*consumed.end);
  EXPECT_EQ(consumed.end->error().reason, Reason::kBadResponse);
  EXPECT_EQ(consumed.end->error().message,
            "API server https://example:6443: a watch event line is longer than " +
                std::to_string(first.size() + 10) +
                " bytes, the limit on one event (max_watch_event_bytes); the server is broken or "
                "hostile, or the limit is too low for its objects");
}

TEST(JsonWatchTest, DecodesErrorEventWithStatus) {
  auto event = decodeWatchEvent(
      R"({"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}})");
  ASSERT_TRUE(event);
  EXPECT_EQ(event.value().type, WatchEventType::kError);
  EXPECT_EQ(event.value().object["code"], 410);
}

}  // namespace
}  // namespace kf
