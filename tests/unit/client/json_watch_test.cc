#include "federation/client/json_watch.h"

#include <gtest/gtest.h>

#include <deque>

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
  auto watch =
      makeJsonWatch(std::make_unique<ChunkedStream>(std::deque<std::string>{
                        R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})"
                        "\n"
                        R"({"type":"MODIFIED","obj)",
                        R"(ect":{"metadata":{"name":"a","resourceVersion":"2"}}})"
                        "\n\n"
                        R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}})"
                        "\n"}),
                    std::nullopt);
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

TEST(JsonWatchTest, ReportsUndecodableEvent) {
  auto watch = makeJsonWatch(std::make_unique<ChunkedStream>(
                                 std::deque<std::string>{"{\"type\":\"NOPE\",\"object\":{}}\n"}),
                             std::nullopt);
  auto event = watch->next();
  ASSERT_FALSE(event);
  EXPECT_EQ(event.error().reason, Reason::kBadResponse);
}

TEST(JsonWatchTest, StopEndsTheStreamCleanly) {
  auto watch = makeJsonWatch(
      std::make_unique<ChunkedStream>(std::deque<std::string>{"{\"type\":\"ADDED\"", "..."}),
      std::nullopt);
  watch->stop();
  auto event = watch->next();
  ASSERT_TRUE(event);
  EXPECT_FALSE(event.value().has_value());
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
