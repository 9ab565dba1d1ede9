// libFuzzer target for the JSON watch as production reads it: consume(), fed by a stream whose
// reads complete either at once (a stream at hand) or later, from the harness's loop (as the
// network's do, on an I/O thread), in pieces of arbitrary size that split lines and UTF-8
// sequences. Input: byte 0 seeds the piece sizes; byte 1 chooses the delivery (bits 0-1), the
// line limit (bits 2-4), after how many events the consumer stops the watch (bit 5 set: never; else
// 1 to 4, from byte 0), and how much each "@@" of the body grows to (bits 6-7: 1 KiB to 64 KiB of
// 'x', so that single lines outgrow the 16 KiB reads and the limits); the rest is the body, JSON
// WatchEvent lines. Invariants: no crash, leak or undefined behaviour; on_end exactly once, nothing
// after it; the events are exactly those of the body's lines decoded one by one, up to the first
// line that does not decode or is over the limit (then the watch ends with kBadResponse), however
// the bytes arrived; next() on the same pieces gives the same events and the same outcome; a
// consumer that stops the watch gets no further event and a clean end.
// Build and run: tests/fuzz/CMakeLists.txt.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "federation/client/json_watch.h"

namespace kf {
namespace {

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

constexpr std::size_t kNoLimit = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kLimits[8] = {kNoLimit, 1, 16, 100, 1000, 4096, 16 * 1024 + 1, 70'000};

enum class Delivery { kAtOnce, kLater, kAlternating };

// Piece sizes from a small generator seeded by the input: mostly short, sometimes a whole read.
class Pieces {
 public:
  explicit Pieces(std::uint8_t seed) : state_(seed | 1u) {}
  std::size_t next(std::size_t room) {
    state_ = state_ * 1103515245u + 12345u;
    const std::uint32_t draw = state_ >> 16;
    const std::size_t piece = (draw & 7) == 0 ? room : 1 + draw % 97;
    return std::min(piece, room);
  }

 private:
  std::uint32_t state_;
};

// The body in pieces, each read completed at once or kept until the harness completes it.
class PiecewiseStream final : public ResponseStream {
 public:
  PiecewiseStream(const std::string& body, std::uint8_t seed, Delivery delivery)
      : body_(body), pieces_(seed), delivery_(delivery) {}
  int status() const override { return 200; }

  // For next(): every read at once.
  Result<std::size_t> read(char* buffer, std::size_t size,
                           std::optional<std::chrono::milliseconds>) override {
    if (cancelled_) return makeError(Reason::kCancelled, "cancelled");
    const std::size_t n = pieces_.next(std::min(size, body_.size() - offset_));
    body_.copy(buffer, n, offset_);
    offset_ += n;
    return n;
  }
  void readAsync(char* buffer, std::size_t size, std::optional<std::chrono::milliseconds> idle,
                 std::function<void(Result<std::size_t>)> done) override {
    check(!pending_, "one read at a time");
    ++reads_;
    const bool at_once =
        delivery_ == Delivery::kAtOnce || (delivery_ == Delivery::kAlternating && reads_ % 2 == 0);
    if (at_once) return done(read(buffer, size, idle));
    pending_ = [this, buffer, size, idle, done = std::move(done)] {
      done(read(buffer, size, idle));
    };
  }
  void cancel() override { cancelled_ = true; }

  // Completes the read kept for later; false when none is.
  bool completeLater() {
    if (!pending_) return false;
    auto pending = std::move(*pending_);
    pending_.reset();
    pending();
    return true;
  }

 private:
  const std::string& body_;
  std::size_t offset_ = 0;
  Pieces pieces_;
  const Delivery delivery_;
  int reads_ = 0;
  bool cancelled_ = false;
  std::optional<std::function<void()>> pending_;
};

struct Outcome {
  std::vector<WatchEvent> events;
  bool failed = false;
};

bool sameEvents(const std::vector<WatchEvent>& a, const std::vector<WatchEvent>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].type != b[i].type || a[i].object != b[i].object) return false;
  }
  return true;
}

// The body's lines decoded one by one, as the watch must deliver them.
Outcome expectedOf(const std::string& body, std::size_t limit) {
  Outcome expected;
  std::size_t start = 0;
  while (start < body.size()) {
    const auto newline = body.find('\n', start);
    const std::size_t end = newline == std::string::npos ? body.size() : newline;
    if (end - start > limit) {
      expected.failed = true;
      return expected;
    }
    if (newline == std::string::npos) return expected;  // a partial last line is dropped
    const std::string line = body.substr(start, end - start);
    start = newline + 1;
    if (line.find_first_not_of(" \r\t") == std::string::npos) continue;
    auto event = decodeWatchEvent(line);
    if (!event) {
      expected.failed = true;
      return expected;
    }
    expected.events.push_back(std::move(event).value());
  }
  return expected;
}

JsonWatchOptions optionsWith(std::size_t limit) {
  return {.idle_timeout = std::nullopt, .max_event_bytes = limit, .source = "fuzz server"};
}

// consume(), the consumer stopping the watch after `stop_after` events (nullopt: never).
Outcome consumed(const std::string& body, std::uint8_t seed, Delivery delivery, std::size_t limit,
                 std::optional<std::size_t> stop_after) {
  auto owned = std::make_unique<PiecewiseStream>(body, seed, delivery);
  PiecewiseStream& stream = *owned;
  WatchPtr watch = makeJsonWatch(std::move(owned), optionsWith(limit));
  Outcome outcome;
  std::optional<Status> end;
  watch->consume({.on_event =
                      [&](WatchEvent event) {
                        check(!end, "no event after on_end");
                        check(!stop_after || outcome.events.size() < *stop_after,
                              "no event after stop()");
                        outcome.events.push_back(std::move(event));
                        if (stop_after && outcome.events.size() == *stop_after) watch->stop();
                      },
                  .on_end =
                      [&](Status status) {
                        check(!end, "on_end once");
                        end = std::move(status);
                      }});
  while (stream.completeLater()) {
  }
  check(end.has_value(), "on_end came once the body ended");
  outcome.failed = !*end;
  if (outcome.failed) {
    check(end->error().reason == Reason::kBadResponse, "a watch fails only on what it read");
  }
  return outcome;
}

// next(), on the same pieces.
Outcome pulled(const std::string& body, std::uint8_t seed, std::size_t limit) {
  WatchPtr watch = makeJsonWatch(std::make_unique<PiecewiseStream>(body, seed, Delivery::kAtOnce),
                                 optionsWith(limit));
  Outcome outcome;
  while (true) {
    auto next = watch->next();
    if (!next) {
      outcome.failed = true;
      return outcome;
    }
    if (!next.value()) return outcome;
    outcome.events.push_back(std::move(*next.value()));
  }
}

// The body with each "@@" replaced by `filler` bytes of 'x', while it stays under 1 MiB (the
// rest are left as they are): larger bodies only slow the search down.
std::string grown(std::string_view body, std::size_t filler) {
  constexpr std::size_t kMaxBody = std::size_t{1} << 20;
  std::string out;
  for (std::size_t at = 0; at < body.size();) {
    if (body.substr(at, 2) == "@@" && out.size() + filler <= kMaxBody) {
      out.append(filler, 'x');
      at += 2;
    } else {
      out += body[at++];
    }
  }
  return out;
}

void exercise(std::uint8_t seed, std::uint8_t mode, std::string_view raw) {
  const auto delivery = static_cast<Delivery>(std::min(mode & 3, 2));
  const std::size_t limit = kLimits[(mode >> 2) & 7];
  const std::optional<std::size_t> stop_after =
      (mode & 0x20) ? std::nullopt : std::optional<std::size_t>(1 + seed % 4);
  const std::string body = grown(raw, std::size_t{1024} << (2 * (mode >> 6)));

  const Outcome expected = expectedOf(body, limit);
  const Outcome pull = pulled(body, seed, limit);
  check(sameEvents(pull.events, expected.events), "next() returns the events of the lines");
  check(pull.failed == expected.failed, "next() fails exactly on a bad or oversized line");

  const Outcome consume = consumed(body, seed, delivery, limit, stop_after);
  if (stop_after && *stop_after <= expected.events.size()) {
    check(consume.events.size() == *stop_after && !consume.failed,
          "a consumer that stops the watch gets a clean end and no further event");
    check(
        sameEvents(consume.events, std::vector<WatchEvent>(expected.events.begin(),
                                                           expected.events.begin() + *stop_after)),
        "consume() delivers the events of the lines before the stop");
    return;
  }
  check(sameEvents(consume.events, expected.events),
        "consume() delivers the events of the lines, however the bytes arrive");
  check(consume.failed == expected.failed, "consume() fails exactly on a bad or oversized line");
}

}  // namespace
}  // namespace kf

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  kf::exercise(data[0], data[1],
               std::string_view(reinterpret_cast<const char*>(data) + 2, size - 2));
  return 0;
}
