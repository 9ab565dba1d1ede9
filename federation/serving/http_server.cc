#include "federation/serving/http_server.h"

#include <spdlog/spdlog.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <thread>
#include <type_traits>
#include <vector>

#include "federation/runtime/interruptible_sleep.h"
#include "federation/runtime/thread_annotations.h"
#include "federation/serving/listen_address.h"
#include "federation/serving/tls_context.h"

namespace kf::serving {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// An idle keep-alive connection (or a slow client, or a stalled TLS handshake) is closed after
// this.
constexpr auto kIdleTimeout = std::chrono::seconds(30);
// After a failed accept (e.g. out of file descriptors), wait a little instead of spinning.
constexpr auto kAcceptRetryDelay = std::chrono::milliseconds(50);

ServerReply callHandler(const Routes& routes, const ServerRequest& request) {
  auto route = routes.find(request.path);
  if (route == routes.end()) return {404, "text/plain; charset=utf-8", "404 page not found\n"};
  try {
    return route->second(request);
  } catch (const std::exception& e) {
    spdlog::error("Handler for {} failed: {}", request.path, e.what());
  } catch (...) {
    spdlog::error("Handler for {} failed", request.path);
  }
  return {500, "text/plain; charset=utf-8", "internal server error\n"};
}

ServerRequest incomingRequest(http::request<http::string_body>& request) {
  const std::string_view target = request.target();
  const std::size_t question = target.find('?');
  return ServerRequest{
      std::string(request.method_string()), std::string(target.substr(0, question)),
      question == std::string_view::npos ? std::string() : std::string(target.substr(question + 1)),
      std::string(request[http::field::content_type]), std::move(request.body())};
}

// What the server keeps of a connection: enough to close it when stopping.
class Connection {
 public:
  virtual ~Connection() = default;
  virtual void close() = 0;
};

// One client connection, plain (beast::tcp_stream) or TLS (TlsStream): [handshake,] read a
// request, answer it, repeat while the client keeps it alive. Lives on the network thread only.
template <class Stream>
class Session final : public Connection, public std::enable_shared_from_this<Session<Stream>> {
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

 public:
  // `tls_context`: the context of this connection (TLS only), kept alive as long as it.
  Session(tcp::socket socket, const Routes& routes, std::size_t max_body, TlsContextPtr tls_context)
      : tls_context_(std::move(tls_context)),
        stream_(openStream(std::move(socket), tls_context_.get())),
        routes_(routes),
        max_body_(max_body) {}

  void start() {
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(kIdleTimeout);
      stream_.async_handshake(asio::ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code ec) {
                                if (ec) {  // not TLS, an old protocol version, or gone
                                  self->close();
                                } else {
                                  self->readRequest();
                                }
                              });
    } else {
      readRequest();
    }
  }

  void close() override {
    beast::error_code ignored;
    auto& socket = beast::get_lowest_layer(stream_).socket();
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  }

 private:
  static Stream openStream(tcp::socket socket, asio::ssl::context* tls_context) {
    if constexpr (kTls) {
      return Stream(std::move(socket), *tls_context);
    } else {
      return Stream(std::move(socket));
    }
  }

  void readRequest() {
    parser_.emplace();
    parser_->body_limit(max_body_);
    beast::get_lowest_layer(stream_).expires_after(kIdleTimeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->onRead(ec); });
  }

  void onRead(beast::error_code ec) {
    if (ec == http::error::body_limit) {
      writeReply({413, "text/plain; charset=utf-8", "request body too large\n"},
                 parser_->get().version(), false, false);
      return;
    }
    if (ec) {  // the client closed, went idle, sent garbage, or the server is stopping
      close();
      return;
    }
    auto request = parser_->release();
    const bool keep_alive = request.keep_alive();
    const bool head = request.method() == http::verb::head;
    const unsigned version = request.version();
    writeReply(callHandler(routes_, incomingRequest(request)), version, keep_alive, head);
  }

  void writeReply(ServerReply reply, unsigned version, bool keep_alive, bool head) {
    response_ = http::response<http::string_body>(static_cast<http::status>(reply.status), version);
    response_.set(http::field::content_type, reply.content_type);
    response_.keep_alive(keep_alive);
    response_.content_length(reply.body.size());
    if (!head) response_.body() = std::move(reply.body);  // HEAD: the length, not the bytes
    http::async_write(
        stream_, response_,
        [self = this->shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
          if (ec || !keep_alive) {
            self->close();
          } else {
            self->readRequest();
          }
        });
  }

  TlsContextPtr tls_context_;  // declared before stream_, which uses it: destroyed after it
  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  const Routes& routes_;
  const std::size_t max_body_;
};

}  // namespace

struct HttpServer::State {
  State(Routes r, std::size_t body_limit) : routes(std::move(r)), max_request_body(body_limit) {}

  // Network thread only.
  void accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
      if (ec) {
        spdlog::warn("Accepting a connection on port {} failed: {}", port, ec.message());
        retry_timer.expires_after(kAcceptRetryDelay);
        retry_timer.async_wait([this](beast::error_code wait_ec) {
          if (!wait_ec) accept();
        });
        return;
      }
      std::erase_if(sessions, [](const std::weak_ptr<Connection>& c) { return c.expired(); });
      if (tls) {
        startSession<TlsStream>(std::move(socket), tls->current());
      } else {
        startSession<beast::tcp_stream>(std::move(socket), nullptr);
      }
      accept();
    });
  }

  template <class Stream>
  void startSession(tcp::socket socket, TlsContextPtr tls_context) {
    auto session = std::make_shared<Session<Stream>>(std::move(socket), routes, max_request_body,
                                                     std::move(tls_context));
    sessions.push_back(session);
    session->start();
  }

  // Network thread only: ends every pending operation, so io.run() returns.
  void closeAll() {
    beast::error_code ignored;
    acceptor.close(ignored);
    retry_timer.cancel();
    for (const auto& weak : sessions) {
      if (auto connection = weak.lock()) connection->close();
    }
    sessions.clear();
  }

  const Routes routes;
  const std::size_t max_request_body;
  std::unique_ptr<ReloadingTlsContext> tls;  // null for plain HTTP; network thread only
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::steady_timer retry_timer{io};
  std::vector<std::weak_ptr<Connection>> sessions;  // network thread only
  int port = 0;
  Mutex stop_mu;
  std::thread thread;  // joined by stop(), under stop_mu
};

namespace {

Result<tcp::endpoint> resolve(const ListenAddress& address, asio::io_context& io,
                              const std::string& text) {
  if (address.host.empty()) return tcp::endpoint(tcp::v6(), address.port);
  beast::error_code ec;
  const auto ip = asio::ip::make_address(address.host, ec);
  if (!ec) return tcp::endpoint(ip, address.port);
  tcp::resolver resolver(io);
  auto results = resolver.resolve(address.host, std::to_string(address.port),
                                  tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || results.empty()) {
    return makeError(Reason::kBadConfig, "invalid listen address \"" + text +
                                             "\": cannot resolve host \"" + address.host +
                                             "\": " + (ec ? ec.message() : "no addresses"));
  }
  return results.begin()->endpoint();
}

beast::error_code listenOn(tcp::acceptor& acceptor, const tcp::endpoint& endpoint,
                           bool dual_stack) {
  beast::error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec && dual_stack) acceptor.set_option(asio::ip::v6_only(false), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    beast::error_code ignored;
    acceptor.close(ignored);
  }
  return ec;
}

// An empty host means every interface: one dual-stack IPv6 socket (as Go listens), or IPv4 only
// on a machine without IPv6.
beast::error_code listen(tcp::acceptor& acceptor, const tcp::endpoint& endpoint, bool any_host) {
  if (!any_host) return listenOn(acceptor, endpoint, false);
  const auto ec = listenOn(acceptor, endpoint, true);
  if (!ec || ec == asio::error::address_in_use) return ec;
  return listenOn(acceptor, tcp::endpoint(tcp::v4(), endpoint.port()), false);
}

std::string secondsText(Duration duration) {
  return fmt::format("{:g}s", std::chrono::duration<double>(duration).count());
}

ApiError listenError(const std::string& address, const beast::error_code& ec,
                     const BindRetry& retry) {
  std::string hint;
  if (ec == asio::error::address_in_use) {
    hint = retry.clock ? " for " + secondsText(retry.timeout) +
                             " (another process listens there; stop it or choose another port)"
                       : " (another process listens there; choose another port)";
  }
  return makeError(Reason::kConnectionFailed,
                   "cannot listen on \"" + address + "\": " + ec.message() + hint);
}

// listen(), tried again while the address is in use, as `retry` allows.
Status listenRetrying(tcp::acceptor& acceptor, const tcp::endpoint& endpoint, bool any_host,
                      const std::string& address, const BindRetry& retry) {
  const SteadyTime first_attempt = retry.clock ? retry.clock->now() : SteadyTime{};
  for (int attempt = 1;; ++attempt) {
    const auto ec = listen(acceptor, endpoint, any_host);
    if (!ec) {
      if (attempt > 1) spdlog::info("Listening on \"{}\" at attempt {}", address, attempt);
      return boost::outcome_v2::success();
    }
    const bool retry_it = ec == asio::error::address_in_use && retry.clock &&
                          retry.clock->now() - first_attempt < retry.timeout;
    if (!retry_it) return listenError(address, ec, retry);
    if (attempt == 1) {
      spdlog::warn("Cannot listen on \"{}\" yet: {}; trying again every {} for up to {}", address,
                   ec.message(), secondsText(retry.interval), secondsText(retry.timeout));
    }
    sleepUnlessStopped(*retry.clock, std::stop_token{}, retry.interval);
  }
}

}  // namespace

Result<std::unique_ptr<HttpServer>> HttpServer::start(const std::string& address, Routes routes,
                                                      ServerOptions options) {
  KF_TRY(parsed, parseListenAddress(address));
  auto state = std::make_unique<State>(std::move(routes), options.max_request_body);
  if (options.tls) {
    KF_TRY(tls, ReloadingTlsContext::load(std::move(*options.tls)));
    state->tls = std::move(tls);
  }
  KF_TRY(endpoint, resolve(parsed, state->io, address));
  KF_TRYV(
      listenRetrying(state->acceptor, endpoint, parsed.host.empty(), address, options.bind_retry));
  state->port = state->acceptor.local_endpoint().port();
  state->accept();
  State* raw = state.get();
  state->thread = std::thread([raw] { raw->io.run(); });
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(state)));
}

HttpServer::HttpServer(std::unique_ptr<State> state) : state_(std::move(state)) {}

HttpServer::~HttpServer() { stop(); }

int HttpServer::port() const { return state_->port; }

void HttpServer::stop() {
  MutexLock lock(state_->stop_mu);
  if (!state_->thread.joinable()) return;
  State* raw = state_.get();
  asio::post(state_->io, [raw] { raw->closeAll(); });
  state_->thread.join();
}

}  // namespace kf::serving
