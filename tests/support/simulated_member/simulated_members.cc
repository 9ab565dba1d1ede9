#include "tests/support/simulated_member/simulated_members.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <deque>
#include <future>
#include <random>
#include <thread>

#include "federation/serving/tls_context.h"
#include "tests/support/simulated_member/member_api.h"
#include "tests/support/simulated_member/watch_events.h"
#include "tests/support/test_certificates.h"

namespace kf::sim {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Stream = beast::ssl_stream<beast::tcp_stream>;
using Strand = asio::strand<asio::io_context::executor_type>;

// An idle keep-alive connection, or a stalled handshake, is closed after this.
constexpr auto kIdleTimeout = std::chrono::seconds(60);
constexpr std::size_t kMaxRequestBody = 16 * 1024 * 1024;
// A watch whose client lets more than this queue up is ended, as the API server ends a watcher
// whose buffer is full; its client lists again.
constexpr std::size_t kMaxQueuedWatchBytes = 64 * 1024 * 1024;
// Bookmarks at least this often on a long watch (the watch cache's bookmark frequency)...
constexpr auto kBookmarkPeriod = std::chrono::minutes(1);
// ...and once this long before the watch's timeout.
constexpr auto kBookmarkBeforeTimeout = std::chrono::seconds(2);

std::string randomToken() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device random;
  std::string token;
  for (int i = 0; i < 32; ++i) token += kHex[random() % 16];
  return token;
}

struct MemberSlot {
  SimulatedMember info;
  std::unique_ptr<MemberStore> store;
  RequestMetrics metrics;
  std::unique_ptr<MemberApi> api;
  std::unique_ptr<tcp::acceptor> acceptor;
};

class Session;

// Hands a watch's lines from the store (any thread, under the member's lock) to its session.
class SessionSink final : public WatchSink {
 public:
  SessionSink(std::weak_ptr<Session> session, Strand strand)
      : session_(std::move(session)), strand_(std::move(strand)) {}
  void deliver(std::shared_ptr<const std::string> line) override;

 private:
  std::weak_ptr<Session> session_;
  Strand strand_;
};

// One client connection: TLS handshake, then requests answered one after the other, until a
// watch turns it into that watch's stream. Everything runs on the connection's strand.
class Session final : public std::enable_shared_from_this<Session> {
 public:
  // `socket` runs on `strand`.
  Session(Strand strand, tcp::socket socket, asio::ssl::context& tls, MemberSlot& slot)
      : strand_(std::move(strand)),
        stream_(std::move(socket), tls),
        slot_(slot),
        deadline_timer_(strand_),
        bookmark_timer_(strand_) {}

  void start() {
    beast::get_lowest_layer(stream_).expires_after(kIdleTimeout);
    stream_.async_handshake(asio::ssl::stream_base::server,
                            [self = shared_from_this()](beast::error_code ec) {
                              if (ec) return self->closeNow();
                              self->readRequest();
                            });
  }

  const Strand& strand() const { return strand_; }

  // On the strand: ends the connection at once (the server is stopping).
  void closeNow() {
    endWatch();
    beast::error_code ignored;
    beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(stream_).close();
  }

  // On the strand: one line of the watch's stream.
  void enqueue(std::shared_ptr<const std::string> line) {
    if (!watch_id_ || ending_) return;
    queued_bytes_ += line->size();
    queue_.push_back(std::move(line));
    if (queued_bytes_ > kMaxQueuedWatchBytes) {
      closeNow();
      return;
    }
    pump();
  }

 private:
  void readRequest() {
    parser_.emplace();
    parser_->body_limit(kMaxRequestBody);
    beast::get_lowest_layer(stream_).expires_after(kIdleTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec) return self->closeNow();
                       self->onRequest();
                     });
  }

  void onRequest() {
    auto& message = parser_->get();
    const std::string_view target = message.target();
    const std::size_t question = target.find('?');
    ApiRequest request{
        std::string(message.method_string()),
        std::string(target.substr(0, question)),
        question == std::string_view::npos ? "" : std::string(target.substr(question + 1)),
        std::string(message[http::field::content_type]),
        std::string(message[http::field::authorization]),
        std::move(message.body())};
    const bool keep_alive = message.keep_alive();
    version_ = message.version();
    ApiOutcome outcome = slot_.api->handle(request);
    if (auto* answer = std::get_if<HttpAnswer>(&outcome)) {
      writeAnswer(std::move(*answer), keep_alive);
    } else {
      startWatch(std::get<WatchStart>(std::move(outcome)));
    }
  }

  void writeAnswer(HttpAnswer answer, bool keep_alive) {
    response_ = http::response<http::string_body>(static_cast<http::status>(answer.code), version_);
    response_.set(http::field::content_type, answer.content_type);
    response_.set(http::field::cache_control, "no-cache, private");
    response_.keep_alive(keep_alive);
    response_.body() = std::move(answer.body);
    response_.prepare_payload();
    http::async_write(stream_, response_,
                      [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                        if (ec || !keep_alive) return self->closeNow();
                        self->readRequest();
                      });
  }

  void startWatch(WatchStart watch) {
    auto sink = std::make_shared<SessionSink>(weak_from_this(), strand_);
    watch_resource_ = watch.resource;
    // The store may deliver events before watch() returns: they queue until the header is out.
    auto started = slot_.store->watch(*watch.resource, watch.ns, std::move(watch.selectors),
                                      watch.resource_version, std::move(sink));
    if (auto* refused = std::get_if<Reply>(&started)) {
      if (refused->code != 410) return writeAnswer(jsonAnswer(*refused), false);
      // Too old: a 200 whose stream holds one ERROR event, as the API server answers.
      expired_line_ = errorLine(refused->body);
    } else {
      watch_id_ = std::get<WatchId>(started);
    }
    beast::get_lowest_layer(stream_).expires_never();
    header_ = http::response<http::empty_body>(http::status::ok, version_);
    header_.set(http::field::content_type, "application/json");
    header_.set(http::field::cache_control, "no-cache, private");
    header_.chunked(true);
    header_serializer_.emplace(header_);
    writing_ = true;
    http::async_write_header(stream_, *header_serializer_,
                             [self = shared_from_this()](beast::error_code ec, std::size_t) {
                               self->writing_ = false;
                               if (ec) return self->closeNow();
                               self->onStreamOpen();
                             });
    if (watch_id_) {
      const auto now = std::chrono::steady_clock::now();
      deadline_ = now + watch.timeout;
      deadline_timer_.expires_at(deadline_);
      deadline_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (!ec) self->finishWatch();
      });
      if (watch.bookmarks) scheduleBookmark();
    }
  }

  void onStreamOpen() {
    if (expired_line_) {
      queue_.push_back(std::move(expired_line_));
      ending_ = true;
      pump();
      return;
    }
    // A client that closes its end of the watch is noticed by this read.
    stream_.async_read_some(
        asio::buffer(&probe_, 1),
        [self = shared_from_this()](beast::error_code, std::size_t) { self->closeNow(); });
    pump();
  }

  void scheduleBookmark() {
    const auto now = std::chrono::steady_clock::now();
    auto next = now + kBookmarkPeriod;
    if (deadline_ - kBookmarkBeforeTimeout < next) next = deadline_ - kBookmarkBeforeTimeout;
    if (next <= now) return;
    bookmark_timer_.expires_at(next);
    bookmark_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || !self->watch_id_) return;
      self->slot_.store->bookmark(*self->watch_id_);
      self->scheduleBookmark();
    });
  }

  // Writes what is queued as one chunk; once ending, the last chunk and then closes.
  void pump() {
    if (writing_ || !header_serializer_ || !header_serializer_->is_header_done()) return;
    if (queue_.empty()) {
      if (ending_) writeLastChunk();
      return;
    }
    in_flight_.assign(std::make_move_iterator(queue_.begin()),
                      std::make_move_iterator(queue_.end()));
    queue_.clear();
    queued_bytes_ = 0;
    std::vector<asio::const_buffer> buffers;
    for (const auto& line : in_flight_) buffers.emplace_back(asio::buffer(*line));
    if (watch_resource_ != nullptr) {
      slot_.metrics.countWatchEvents(*watch_resource_, static_cast<long>(in_flight_.size()));
    }
    writing_ = true;
    asio::async_write(stream_, http::make_chunk(buffers),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        self->writing_ = false;
                        self->in_flight_.clear();
                        if (ec) return self->closeNow();
                        self->pump();
                      });
  }

  void finishWatch() {
    if (ending_) return;
    endWatch();
    ending_ = true;
    pump();
  }

  void writeLastChunk() {
    writing_ = true;
    asio::async_write(stream_, http::make_chunk_last(),
                      [self = shared_from_this()](beast::error_code, std::size_t) {
                        self->writing_ = false;
                        self->closeNow();
                      });
  }

  // The store forgets the watch; no more events queue.
  void endWatch() {
    if (watch_id_) slot_.store->stopWatch(*watch_id_);
    watch_id_.reset();
    deadline_timer_.cancel();
    bookmark_timer_.cancel();
  }

  Strand strand_;
  Stream stream_;
  MemberSlot& slot_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  unsigned version_ = 11;
  // The watch, once the connection streams one.
  std::optional<WatchId> watch_id_;
  const ServedResource* watch_resource_ = nullptr;
  std::shared_ptr<const std::string> expired_line_;
  http::response<http::empty_body> header_;
  std::optional<http::response_serializer<http::empty_body>> header_serializer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::size_t queued_bytes_ = 0;
  std::vector<std::shared_ptr<const std::string>> in_flight_;
  bool writing_ = false;
  bool ending_ = false;
  std::chrono::steady_clock::time_point deadline_;
  asio::steady_timer deadline_timer_;
  asio::steady_timer bookmark_timer_;
  char probe_ = 0;
};

void SessionSink::deliver(std::shared_ptr<const std::string> line) {
  asio::post(strand_, [session = session_, line = std::move(line)]() mutable {
    if (auto alive = session.lock()) alive->enqueue(std::move(line));
  });
}

}  // namespace

struct SimulatedMembers::State {
  explicit State(int thread_count) : io(thread_count), accept_strand(asio::make_strand(io)) {}

  // On accept_strand.
  void accept(MemberSlot& slot) {
    Strand strand = asio::make_strand(io);
    slot.acceptor->async_accept(
        strand, [this, &slot, strand](beast::error_code ec, tcp::socket socket) {
          if (ec == asio::error::operation_aborted || !slot.acceptor->is_open()) return;
          if (!ec) {
            auto session = std::make_shared<Session>(strand, std::move(socket), *tls, slot);
            {
              MutexLock lock(sessions_mu);
              std::erase_if(sessions, [](const std::weak_ptr<Session>& s) { return s.expired(); });
              sessions.push_back(session);
            }
            asio::dispatch(session->strand(), [session] { session->start(); });
          }
          accept(slot);
        });
  }

  asio::io_context io;
  Strand accept_strand;
  serving::TlsContextPtr tls;
  std::vector<std::unique_ptr<MemberSlot>> slots;
  std::vector<SimulatedMember> members;
  Mutex sessions_mu;
  std::vector<std::weak_ptr<Session>> sessions KF_GUARDED_BY(sessions_mu);
  Mutex stop_mu;
  std::vector<std::thread> threads;  // joined by stop(), under stop_mu
};

Result<std::unique_ptr<SimulatedMembers>> SimulatedMembers::start(SimulatedMembersOptions options) {
  if (options.members < 1 || options.threads < 1) {
    return makeError(Reason::kBadConfig, "simulated members: give at least one member and thread");
  }
  auto state = std::make_unique<State>(options.threads);
  KF_TRY(tls, serving::makeServerTlsContext(options.cert_pem, options.key_pem,
                                            "the simulated members' serving certificate"));
  state->tls = std::move(tls);
  for (int i = 1; i <= options.members; ++i) {
    auto slot = std::make_unique<MemberSlot>();
    slot->info.name = options.name_prefix + std::to_string(i);
    slot->info.token = randomToken();
    slot->acceptor = std::make_unique<tcp::acceptor>(state->accept_strand);
    beast::error_code ec;
    const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
    slot->acceptor->open(endpoint.protocol(), ec);
    if (!ec) slot->acceptor->bind(endpoint, ec);
    if (!ec) slot->acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      return makeError(
          Reason::kConnectionFailed,
          "simulated member " + slot->info.name + ": cannot listen on 127.0.0.1: " + ec.message());
    }
    slot->info.port = slot->acceptor->local_endpoint().port();
    slot->store =
        std::make_unique<MemberStore>(slot->info.name, options.history_limit, options.observer);
    slot->api = std::make_unique<MemberApi>(*slot->store, slot->metrics, slot->info.token,
                                            "127.0.0.1:" + std::to_string(slot->info.port));
    state->members.push_back(slot->info);
    state->slots.push_back(std::move(slot));
  }
  State* raw = state.get();
  asio::post(state->accept_strand, [raw] {
    for (auto& slot : raw->slots) raw->accept(*slot);
  });
  for (int i = 0; i < options.threads; ++i) {
    state->threads.emplace_back([raw] { raw->io.run(); });
  }
  return std::unique_ptr<SimulatedMembers>(new SimulatedMembers(std::move(state)));
}

SimulatedMembers::SimulatedMembers(std::unique_ptr<State> state) : state_(std::move(state)) {}

SimulatedMembers::~SimulatedMembers() { stop(); }

const std::vector<SimulatedMember>& SimulatedMembers::members() const { return state_->members; }

MemberStore& SimulatedMembers::store(std::size_t index) { return *state_->slots.at(index)->store; }

RequestMetrics& SimulatedMembers::metrics(std::size_t index) {
  return state_->slots.at(index)->metrics;
}

void SimulatedMembers::stop() {
  MutexLock lock(state_->stop_mu);
  if (state_->threads.empty()) return;
  State* raw = state_.get();
  // Each close runs on the strand its object lives on; the caller waits for it.
  std::promise<void> acceptors_closed;
  asio::post(raw->accept_strand, [raw, &acceptors_closed] {
    for (auto& slot : raw->slots) {
      beast::error_code ignored;
      slot->acceptor->close(ignored);
    }
    acceptors_closed.set_value();
  });
  acceptors_closed.get_future().wait();
  std::vector<std::shared_ptr<Session>> open;
  {
    MutexLock sessions_lock(raw->sessions_mu);
    for (const auto& weak : raw->sessions) {
      if (auto session = weak.lock()) open.push_back(std::move(session));
    }
    raw->sessions.clear();
  }
  for (const auto& session : open) {
    std::promise<void> closed;
    asio::post(session->strand(), [&session, &closed] {
      session->closeNow();
      closed.set_value();
    });
    closed.get_future().wait();
  }
  open.clear();
  raw->io.stop();
  for (auto& thread : raw->threads) thread.join();
  raw->threads.clear();
}

ServingCertificate makeServingCertificate() {
  const test::Credential ca = test::makeCa("kubefed-cpp simulated members CA");
  const test::Credential serving =
      test::makeCredential({.common_name = "kubefed-cpp simulated member",
                            .subject_alt_names = "IP:127.0.0.1,DNS:localhost",
                            .not_after_offset = 24 * 3600},
                           &ca);
  return {ca.cert_pem, serving.cert_pem, serving.key_pem};
}

}  // namespace kf::sim
