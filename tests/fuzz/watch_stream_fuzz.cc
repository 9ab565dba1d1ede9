// libFuzzer target for the watch stream decoder: the input's first byte seeds how the bytes
// arrive, the rest is an HTTP/1.1 response as an API server sends a watch (headers, then a
// chunked or plain body of one JSON WatchEvent per line). The response is read the way the
// transport reads a watch (Beast's parser with a caller-supplied buffer, body bytes handed on
// as they come, in pieces of arbitrary size that split chunks, lines and UTF-8 sequences) into
// the JSON watch, which turns lines into events. Invariants: no crash, leak or undefined
// behaviour, and the events do not depend on how the bytes arrived: they are exactly the events
// of the whole body's lines decoded one by one, up to the first line that does not decode.
// Build and run: tests/fuzz/CMakeLists.txt.

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "federation/client/json_watch.h"

namespace kf {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

// A SyncReadStream over the input that returns at most a few bytes per read, the sizes drawn
// from a small generator seeded by the input, as a socket splits what a server sends.
class PiecewiseStream {
 public:
  using executor_type = asio::any_io_executor;
  PiecewiseStream(std::string_view bytes, std::uint8_t seed) : bytes_(bytes), state_(seed | 1u) {}

  template <class Buffers>
  std::size_t read_some(const Buffers& buffers, boost::system::error_code& ec) {
    if (offset_ == bytes_.size()) {
      ec = asio::error::eof;
      return 0;
    }
    state_ = state_ * 1103515245u + 12345u;
    const std::size_t piece = 1 + (state_ >> 16) % 97;
    const std::size_t size = std::min({piece, bytes_.size() - offset_, asio::buffer_size(buffers)});
    const std::size_t copied =
        asio::buffer_copy(buffers, asio::buffer(bytes_.data() + offset_, size));
    offset_ += copied;
    ec = {};
    return copied;
  }
  template <class Buffers>
  std::size_t read_some(const Buffers& buffers) {
    boost::system::error_code ec;
    return read_some(buffers, ec);
  }

 private:
  std::string_view bytes_;
  std::size_t offset_ = 0;
  std::uint32_t state_;
};

// The body of a streamed response, as the transport's ResponseStream hands it on.
class ParsedBody final : public ResponseStream {
 public:
  ParsedBody(PiecewiseStream& stream, beast::flat_buffer& buffer,
             http::response_parser<http::buffer_body>& parser)
      : stream_(stream), buffer_(buffer), parser_(parser) {}
  int status() const override { return 200; }
  Result<std::size_t> read(char* out, std::size_t size,
                           std::optional<std::chrono::milliseconds>) override {
    while (true) {
      if (parser_.is_done()) return std::size_t{0};
      parser_.get().body().data = out;
      parser_.get().body().size = size;
      boost::system::error_code ec;
      http::read_some(stream_, buffer_, parser_, ec);
      if (ec == http::error::need_buffer) ec = {};
      if (ec) return makeError(Reason::kConnectionFailed, "reading the stream: " + ec.message());
      const std::size_t received = size - parser_.get().body().size;
      if (received > 0) return received;
    }
  }
  void cancel() override {}

 private:
  PiecewiseStream& stream_;
  beast::flat_buffer& buffer_;
  http::response_parser<http::buffer_body>& parser_;
};

// The whole body, parsed at once; nullopt when the response does not parse.
std::optional<std::string> wholeBody(std::string_view bytes) {
  http::response_parser<http::string_body> parser;
  parser.eager(true);
  // A body cannot be longer than the input: a larger Content-Length is a broken response (and
  // would make the string body reserve all of it up front).
  parser.body_limit(bytes.size());
  boost::system::error_code ec;
  parser.put(asio::buffer(bytes.data(), bytes.size()), ec);
  if (ec == http::error::need_more) parser.put_eof(ec);
  if (ec || !parser.is_done()) return std::nullopt;
  return parser.release().body();
}

// The events of `body` decoded line by line, up to the first line that does not decode.
std::vector<WatchEvent> eventsOfLines(const std::string& body) {
  std::vector<WatchEvent> events;
  std::size_t start = 0;
  for (auto newline = body.find('\n'); newline != std::string::npos;
       start = newline + 1, newline = body.find('\n', start)) {
    const std::string line = body.substr(start, newline - start);
    if (line.find_first_not_of(" \r\t") == std::string::npos) continue;
    auto event = decodeWatchEvent(line);
    if (!event) break;
    events.push_back(std::move(event).value());
  }
  return events;
}

void exercise(std::string_view bytes, std::uint8_t seed) {
  PiecewiseStream stream(bytes, seed);
  beast::flat_buffer buffer;
  http::response_parser<http::buffer_body> parser;
  parser.header_limit(64 * 1024);
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  boost::system::error_code ec;
  http::read_header(stream, buffer, parser, ec);
  if (ec) return;
  auto watch = makeJsonWatch(std::make_unique<ParsedBody>(stream, buffer, parser));
  std::vector<WatchEvent> streamed;
  bool failed = false;
  while (true) {
    auto next = watch->next();
    if (!next) {
      failed = true;
      break;
    }
    if (!next.value()) break;
    streamed.push_back(std::move(*next.value()));
  }
  const auto body = wholeBody(bytes);
  if (!body) return;  // a broken response: the watch only has to end without harm
  const auto expected = eventsOfLines(*body);
  check(streamed.size() <= expected.size(), "no more events than lines");
  for (std::size_t i = 0; i < streamed.size(); ++i) {
    check(streamed[i].type == expected[i].type && streamed[i].object == expected[i].object,
          "the events do not depend on how the bytes arrived");
  }
  if (!failed) check(streamed.size() == expected.size(), "a clean end returns every event");
}

}  // namespace
}  // namespace kf

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  kf::exercise(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1), data[0]);
  return 0;
}
