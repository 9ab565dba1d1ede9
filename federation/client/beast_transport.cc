// HTTP/1.1 over TCP or TLS with Boost.Beast. A request's connection owns a small io_context that
// the calling thread runs while it waits, so a request is a plain blocking call with deadlines
// and no hand-over between threads. A stream's connection lives on the process's two I/O
// threads instead, in a strand of its own, so that a watch can be read without holding any
// thread while it idles. Connections are shared_ptr-owned so that a cancel or a read still
// pending on the I/O threads keeps what it touches alive.

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <future>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include "apis/meta/ascii.h"
#include "federation/client/certificate_caches.h"
#include "federation/client/client_certificate.h"
#include "federation/client/server_url.h"
#include "federation/client/transport.h"
#include "federation/runtime/thread_annotations.h"
#include "federation/runtime/thread_name.h"

namespace kf {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Milliseconds = std::chrono::milliseconds;

constexpr std::size_t kMaxIdleConnections = 16;
constexpr std::uint32_t kHeaderLimit = 1U << 20;
// Two: TLS and the decoding of every watch stream run here, and a second thread keeps one long
// decode (a large object) from holding up every other stream. The work is short and never
// blocks, so more threads would only add switches.
constexpr int kIoThreads = 2;

// The process's I/O threads, started on first use and joined at exit. The io_context itself is
// never destroyed: a connection owned by a static object may be closed after the threads ended.
class IoThreads {
 public:
  static IoThreads& shared() {
    static IoThreads threads(kIoThreads);
    return threads;
  }
  ~IoThreads() {
    work_.reset();
    context_->stop();
    for (std::thread& thread : threads_) thread.join();
  }
  IoThreads(const IoThreads&) = delete;
  IoThreads& operator=(const IoThreads&) = delete;

  asio::io_context& context() { return *context_; }
  // Whether the calling thread is one of them: it must never wait for them.
  static bool current() { return on_io_thread; }

 private:
  explicit IoThreads(int count)
      : context_(new asio::io_context(count)),  // NOLINT(cppcoreguidelines-owning-memory): kept
        work_(asio::make_work_guard(*context_)) {
    for (int i = 0; i < count; ++i) {
      threads_.emplace_back([this] { run(); });
    }
  }
  void run() {
    on_io_thread = true;
    nameThisThread("client-io");
    while (true) {
      try {
        context_->run();
        return;
      } catch (const std::exception& error) {
        // A completion handler threw: the others must go on being served.
        spdlog::error("I/O thread: a completion handler failed: {}", error.what());
      }
    }
  }

  static thread_local bool on_io_thread;
  asio::io_context* context_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
};

thread_local bool IoThreads::on_io_thread = false;

// Waiting for the I/O threads on one of them could wait for ever: the caller is a bug.
ApiError blockedOnIoThread() {
  return makeError(Reason::kUnknown,
                   "a blocking API request was made on an I/O thread; it must be handed to a "
                   "worker thread");
}

std::map<std::string, std::string> headersOf(const http::fields& fields) {
  std::map<std::string, std::string> headers;
  for (const auto& field : fields) {
    headers[toLower(std::string(field.name_string()))] = std::string(field.value());
  }
  return headers;
}

// What a connection needs that is the same for every connection to one server.
struct Endpoint {
  ServerUrl server;
  std::optional<ServerUrl> proxy;
  std::shared_ptr<ssl::context> tls_context;  // null for plain http
  std::string verify_name;                    // host name (or IP) the certificate must match
  bool verify_hostname = true;                // false: any name, as long as the chain verifies
  Milliseconds connect_timeout;
  std::size_t max_body_bytes = 0;  // of one response read whole (RestConfig's)
  std::string role;                // what messages call the server
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using ReadDone = std::function<void(Result<std::size_t>)>;

  // Where a connection's I/O runs: on the thread of the call waiting for it (requests), or on
  // the shared I/O threads (streams, whose reads may complete with no one waiting).
  enum class Mode { kCallerThread, kSharedIoThreads };

  // `certificate`: presented in the TLS handshake instead of the endpoint's own (may be null).
  Connection(std::shared_ptr<const Endpoint> endpoint,
             std::shared_ptr<const ClientCertificate> certificate, Mode mode)
      : shared_endpoint_(std::move(endpoint)),
        certificate_(std::move(certificate)),
        own_context_(mode == Mode::kCallerThread ? std::make_unique<asio::io_context>(1) : nullptr),
        executor_(own_context_
                      ? asio::any_io_executor(own_context_->get_executor())
                      : asio::any_io_executor(asio::make_strand(IoThreads::shared().context()))) {}

  // The per-request client certificate this connection authenticated with (null: none).
  const std::shared_ptr<const ClientCertificate>& certificate() const { return certificate_; }

  Status connect() {
    const ServerUrl& target = endpoint_.proxy ? *endpoint_.proxy : endpoint_.server;
    tcp::resolver resolver(executor_);
    tcp::resolver::results_type endpoints;
    // Named only when it is not the API server itself, which every message names anyway.
    const std::string via = endpoint_.proxy ? " proxy " + target.authority() : "";
    beast::error_code resolve_ec;
    if (own_context_) {
      // On the caller's thread, as the request itself: Asio resolves asynchronously on a thread
      // of each io_context's own, which every pooled connection would keep.
      endpoints = resolver.resolve(target.host, target.port, resolve_ec);
    } else {
      resolve_ec = await([&](auto handler) {
        resolver.async_resolve(
            target.host, target.port,
            [&endpoints, handler](beast::error_code ec, tcp::resolver::results_type results) {
              endpoints = std::move(results);
              handler(ec);
            });
      });
    }
    if (resolve_ec) return connectionError("resolving" + via, resolve_ec);
    if (auto ec = await([&](auto handler) {
          tcp_.expires_after(endpoint_.connect_timeout);
          tcp_.async_connect(endpoints, handler);
        })) {
      return connectionError("connecting" + via, ec);
    }
    if (endpoint_.proxy) {
      KF_TRYV(tunnelThroughProxy());
    }
    if (endpoint_.tls_context) {
      KF_TRYV(handshake());
    }
    return boost::outcome_v2::success();
  }

  Result<HttpResponse> exchange(const HttpRequest& request, bool* reusable) {
    KF_TRYV(send(request));
    http::response_parser<http::string_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(endpoint_.max_body_bytes);
    if (auto ec = await([&](auto handler) {
          expiresAfter(request.timeout);
          asyncRead(parser, handler);
        })) {
      if (ec == http::error::body_limit) return bodyTooLarge(request);
      return connectionError("reading the response", ec);
    }
    auto message = parser.release();
    *reusable = message.keep_alive();
    return HttpResponse{static_cast<int>(message.result_int()), headersOf(message),
                        std::move(message.body())};
  }

  Status send(const HttpRequest& request) {
    http::request<http::string_body> message;
    message.method_string(request.method);
    message.target(endpoint_.server.path_prefix + request.target);
    message.version(11);
    message.set(http::field::host, endpoint_.server.authority());
    for (const auto& [name, value] : request.headers) message.set(name, value);
    for (const auto& [name, value] : request.repeated_headers) message.insert(name, value);
    message.body() = request.body;
    message.prepare_payload();
    if (auto ec = await([&](auto handler) {
          expiresAfter(request.timeout);
          asyncWrite(message, handler);
        })) {
      return connectionError("sending the request", ec);
    }
    return boost::outcome_v2::success();
  }

  // Streaming: headers first, then body bytes as they arrive.
  Result<int> readStreamHeader(Milliseconds timeout) {
    stream_parser_.emplace();
    stream_parser_->header_limit(kHeaderLimit);
    stream_parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
    if (auto ec = await([&](auto handler) {
          expiresAfter(timeout);
          asyncReadHeader(*stream_parser_, handler);
        })) {
      return connectionError("reading the response headers", ec);
    }
    return static_cast<int>(stream_parser_->get().result_int());
  }

  Result<std::size_t> readStreamBody(char* buffer, std::size_t size,
                                     std::optional<Milliseconds> idle_timeout) {
    if (IoThreads::current()) return blockedOnIoThread();
    std::promise<Result<std::size_t>> finished;
    auto result = finished.get_future();
    readStreamBodyAsync(buffer, size, idle_timeout,
                        [&finished](Result<std::size_t> read) { finished.set_value(read); });
    return result.get();
  }

  // `done` runs on this connection's strand. Only for a connection on the I/O threads.
  void readStreamBodyAsync(char* buffer, std::size_t size, std::optional<Milliseconds> idle_timeout,
                           ReadDone done) {
    asio::dispatch(executor_, [self = shared_from_this(), buffer, size, idle_timeout,
                               done = std::move(done)]() mutable {
      self->readSomeBody(buffer, size, idle_timeout, std::move(done));
    });
  }

  // Thread-safe. Only streams are cancelled, and they live on the I/O threads.
  void cancel() {
    cancelled_ = true;
    asio::post(executor_, [self = shared_from_this()] { self->tcpLayer().cancel(); });
  }

 private:
  using StreamParser = http::response_parser<http::buffer_body>;

  beast::tcp_stream& tcpLayer() { return tls_ ? tls_->next_layer() : tcp_; }
  void expiresAfter(Milliseconds timeout) { tcpLayer().expires_after(timeout); }

  // Runs `start`, which sets a deadline and begins one asynchronous operation, and waits for the
  // operation to complete: running this connection's own io_context, or on the I/O threads.
  template <class Start>
  beast::error_code await(Start start) {
    if (IoThreads::current()) return asio::error::operation_not_supported;
    if (own_context_) {
      std::optional<beast::error_code> result;
      start([&result](beast::error_code ec, auto&&...) { result = ec; });
      own_context_->restart();
      while (!result && own_context_->run_one() > 0) {
      }
      return result.value_or(asio::error::operation_aborted);
    }
    std::promise<beast::error_code> finished;
    auto result = finished.get_future();
    asio::dispatch(executor_, [&] {
      start([&finished](beast::error_code ec, auto&&...) { finished.set_value(ec); });
    });
    return result.get();
  }

  // On the strand: reads body bytes into `buffer` until at least one arrived, the body ended,
  // or the read failed.
  void readSomeBody(char* buffer, std::size_t size, std::optional<Milliseconds> idle_timeout,
                    ReadDone done) {
    if (cancelled_) return done(makeError(Reason::kCancelled, "the stream was cancelled"));
    if (stream_parser_->is_done()) return done(std::size_t{0});
    stream_parser_->get().body().data = buffer;
    stream_parser_->get().body().size = size;
    if (idle_timeout) {
      expiresAfter(*idle_timeout);
    } else {
      tcpLayer().expires_never();
    }
    asyncReadSome(*stream_parser_,
                  [self = shared_from_this(), buffer, size, idle_timeout, done = std::move(done)](
                      beast::error_code ec, std::size_t) mutable {
                    if (ec == http::error::need_buffer) ec = {};
                    if (self->cancelled_)
                      return done(makeError(Reason::kCancelled, "the stream was cancelled"));
                    if (ec) return done(self->connectionError("reading the stream", ec));
                    const std::size_t received = size - self->stream_parser_->get().body().size;
                    if (received > 0) return done(received);
                    self->readSomeBody(buffer, size, idle_timeout, std::move(done));
                  });
  }

  template <class Message, class Handler>
  void asyncWrite(Message& message, Handler handler) {
    if (tls_) {
      http::async_write(*tls_, message, handler);
    } else {
      http::async_write(tcp_, message, handler);
    }
  }
  template <class Parser, class Handler>
  void asyncRead(Parser& parser, Handler handler) {
    if (tls_) {
      http::async_read(*tls_, buffer_, parser, handler);
    } else {
      http::async_read(tcp_, buffer_, parser, handler);
    }
  }
  template <class Parser, class Handler>
  void asyncReadHeader(Parser& parser, Handler handler) {
    if (tls_) {
      http::async_read_header(*tls_, buffer_, parser, handler);
    } else {
      http::async_read_header(tcp_, buffer_, parser, handler);
    }
  }
  template <class Parser, class Handler>
  void asyncReadSome(Parser& parser, Handler handler) {
    if (tls_) {
      http::async_read_some(*tls_, buffer_, parser, handler);
    } else {
      http::async_read_some(tcp_, buffer_, parser, handler);
    }
  }

  // HTTP CONNECT through an http:// proxy, then TLS (or plain HTTP) inside the tunnel.
  Status tunnelThroughProxy() {
    http::request<http::empty_body> connect{http::verb::connect, endpoint_.server.authority(), 11};
    connect.set(http::field::host, endpoint_.server.authority());
    if (auto ec = await([&](auto handler) {
          tcp_.expires_after(endpoint_.connect_timeout);
          http::async_write(tcp_, connect, handler);
        })) {
      return connectionError("sending CONNECT to the proxy", ec);
    }
    http::response_parser<http::empty_body> parser;
    parser.skip(true);  // a CONNECT response has no body: the tunnel starts right after it
    if (auto ec = await([&](auto handler) { http::async_read(tcp_, buffer_, parser, handler); })) {
      return connectionError("reading the proxy's CONNECT response", ec);
    }
    if (parser.get().result_int() != 200) {
      return makeError(Reason::kConnectionFailed, "proxy " + endpoint_.proxy->authority() +
                                                      " refused CONNECT to " +
                                                      endpoint_.server.authority() + ": HTTP " +
                                                      std::to_string(parser.get().result_int()));
    }
    return boost::outcome_v2::success();
  }

  Status handshake() {
    tls_.emplace(std::move(tcp_), *endpoint_.tls_context);
    SSL* ssl_handle = tls_->native_handle();
    if (!isIpLiteral(endpoint_.verify_name)) {
      // SNI only for names: RFC 6066 forbids IP literals in server_name.
      // (SSL_set_tlsext_host_name is a macro with a C cast; this is the call it expands to.)
      SSL_ctrl(ssl_handle, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
               const_cast<char*>(endpoint_.verify_name.c_str()));
    }
    if (endpoint_.verify_hostname) requireCertificateName(ssl_handle);
    if (certificate_) {
      KF_TRYV(useClientCertificate(ssl_handle, *certificate_));
    }
    const auto ec = await([&](auto handler) {
      expiresAfter(endpoint_.connect_timeout);
      tls_->async_handshake(ssl::stream_base::client, handler);
    });
    if (!ec) return boost::outcome_v2::success();
    const long verify_result = SSL_get_verify_result(ssl_handle);
    if (verify_result != X509_V_OK) {
      const std::string why = X509_verify_cert_error_string(verify_result);
      return makeError(Reason::kTlsVerification,
                       "TLS handshake with " + endpoint_.server.authority() +
                           ": the server certificate did not verify: " + why + " (" +
                           verificationHint(verify_result) + ")");
    }
    return connectionError("TLS handshake", ec);
  }

  // OpenSSL checks the name during chain verification, so a mismatch is reported as a
  // verification result of its own (not as a generic handshake failure).
  void requireCertificateName(SSL* ssl_handle) const {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl_handle);
    if (isIpLiteral(endpoint_.verify_name)) {
      X509_VERIFY_PARAM_set1_ip_asc(param, endpoint_.verify_name.c_str());
    } else {
      X509_VERIFY_PARAM_set1_host(param, endpoint_.verify_name.c_str(), 0);
    }
  }

  std::string verificationHint(long verify_result) const {
    switch (verify_result) {
      case X509_V_ERR_HOSTNAME_MISMATCH:
      case X509_V_ERR_IP_ADDRESS_MISMATCH:
        return "the certificate is not issued for " + endpoint_.verify_name +
               ": connect through a name or IP in its subjectAltName";
      case X509_V_ERR_CERT_HAS_EXPIRED:
      case X509_V_ERR_CERT_NOT_YET_VALID:
        return "the certificate is outside its validity period: renew it or check the clocks";
      default:
        return "check the CA in the kubeconfig or the cluster's caBundle";
    }
  }

  // Not retried (kBadResponse): the same server would most likely send as much again. The
  // connection is dropped with the rest of the body unread.
  ApiError bodyTooLarge(const HttpRequest& request) const {
    return makeError(Reason::kBadResponse,
                     endpoint_.role + " " + endpoint_.server.authority() + ": the response to " +
                         request.method + " " + request.target + " is larger than " +
                         std::to_string(endpoint_.max_body_bytes) +
                         " bytes, the limit on one response body (max_response_body_bytes); "
                         "the server is broken or hostile, or the limit is too low for it");
  }

  ApiError connectionError(const std::string& step, const beast::error_code& ec) const {
    if (cancelled_) return makeError(Reason::kCancelled, "the request was cancelled");
    const Reason reason =
        ec == beast::error::timeout ? Reason::kClientTimeout : Reason::kConnectionFailed;
    return makeError(reason, endpoint_.role + " " + endpoint_.server.authority() + ": " + step +
                                 " failed: " + ec.message());
  }

  // Shared: a read pending on the I/O threads may outlive the transport.
  const std::shared_ptr<const Endpoint> shared_endpoint_;
  const Endpoint& endpoint_ = *shared_endpoint_;
  const std::shared_ptr<const ClientCertificate> certificate_;
  const std::unique_ptr<asio::io_context> own_context_;  // null: on the I/O threads
  const asio::any_io_executor executor_;                 // own_context_'s, or a strand
  beast::tcp_stream tcp_{executor_};                     // moved into tls_ on handshake
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls_;
  beast::flat_buffer buffer_;
  std::optional<StreamParser> stream_parser_;
  std::atomic<bool> cancelled_{false};
};

class BeastResponseStream final : public ResponseStream {
 public:
  BeastResponseStream(std::shared_ptr<Connection> connection, int status)
      : connection_(std::move(connection)), status_(status) {}
  // A read still pending holds the connection: cancelling ends it, and with it the connection.
  ~BeastResponseStream() override { connection_->cancel(); }
  BeastResponseStream(const BeastResponseStream&) = delete;
  BeastResponseStream& operator=(const BeastResponseStream&) = delete;

  int status() const override { return status_; }
  Result<std::size_t> read(char* buffer, std::size_t size,
                           std::optional<Milliseconds> idle_timeout) override {
    return connection_->readStreamBody(buffer, size, idle_timeout);
  }
  void readAsync(char* buffer, std::size_t size, std::optional<Milliseconds> idle_timeout,
                 std::function<void(Result<std::size_t>)> done) override {
    connection_->readStreamBodyAsync(buffer, size, idle_timeout, std::move(done));
  }
  void cancel() override { connection_->cancel(); }

 private:
  std::shared_ptr<Connection> connection_;
  int status_;
};

class BeastTransport final : public Transport {
 public:
  explicit BeastTransport(Endpoint endpoint)
      : endpoint_(std::make_shared<const Endpoint>(std::move(endpoint))) {}

  Result<HttpResponse> roundTrip(const HttpRequest& request) override {
    if (IoThreads::current()) return blockedOnIoThread();
    // A pooled connection may have been closed by the server while idle; the request then fails
    // before any response byte, and is safe to send again once on a fresh connection.
    while (auto pooled = takeIdle(request.client_certificate)) {
      bool reusable = false;
      auto response = pooled->exchange(request, &reusable);
      if (response) {
        if (reusable) giveBack(std::move(pooled));
        return response;
      }
      if (response.error().reason != Reason::kConnectionFailed) return response;
    }
    auto fresh = std::make_shared<Connection>(endpoint_, request.client_certificate,
                                              Connection::Mode::kCallerThread);
    KF_TRYV(fresh->connect());
    bool reusable = false;
    KF_TRY(response, fresh->exchange(request, &reusable));
    if (reusable) giveBack(std::move(fresh));
    return response;
  }

  Result<ResponseStreamPtr> openStream(const HttpRequest& request) override {
    if (IoThreads::current()) return blockedOnIoThread();
    auto connection = std::make_shared<Connection>(endpoint_, request.client_certificate,
                                                   Connection::Mode::kSharedIoThreads);
    KF_TRYV(connection->connect());
    KF_TRYV(connection->send(request));
    KF_TRY(status, connection->readStreamHeader(request.timeout));
    return std::make_unique<BeastResponseStream>(std::move(connection), status);
  }

 private:
  // An idle connection made with the same client certificate. Those made with another one are
  // closed: the certificate rotated, and the server must see the new one.
  std::shared_ptr<Connection> takeIdle(
      const std::shared_ptr<const ClientCertificate>& certificate) {
    MutexLock lock(mu_);
    while (!idle_.empty()) {
      auto connection = std::move(idle_.back());
      idle_.pop_back();
      if (connection->certificate() == certificate) return connection;
    }
    return nullptr;
  }

  void giveBack(std::shared_ptr<Connection> connection) {
    MutexLock lock(mu_);
    if (idle_.size() < kMaxIdleConnections) idle_.push_back(std::move(connection));
  }

  std::shared_ptr<const Endpoint> endpoint_;
  Mutex mu_;
  std::vector<std::shared_ptr<Connection>> idle_ KF_GUARDED_BY(mu_);
};

Result<std::shared_ptr<ssl::context>> makeTlsContext(const TlsConfig& tls) {
  try {
    auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
    context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                         ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                         ssl::context::no_tlsv1_1);
    if (tls.insecure_skip_verify) {
      context->set_verify_mode(ssl::verify_none);
    } else {
      context->set_verify_mode(ssl::verify_peer);
      if (tls.ca_pem.empty()) {
        context->set_default_verify_paths();
      } else {
        context->add_certificate_authority(asio::buffer(tls.ca_pem));
      }
      if (tls.ignore_validity_period) {
        X509_VERIFY_PARAM_set_flags(SSL_CTX_get0_param(context->native_handle()),
                                    X509_V_FLAG_NO_CHECK_TIME);
      }
    }
    if (!tls.client_cert_pem.empty()) {
      context->use_certificate_chain(asio::buffer(tls.client_cert_pem));
      context->use_private_key(asio::buffer(tls.client_key_pem), ssl::context::pem);
    }
    cacheCertificateExtensions(context->native_handle());
    return context;
  } catch (const boost::system::system_error& error) {
    return makeError(Reason::kBadConfig,
                     std::string("loading TLS certificates or key: ") + error.what());
  }
}

}  // namespace

Result<TransportPtr> makeTransport(const RestConfig& config) {
  Endpoint endpoint;
  KF_TRY(server, parseServerUrl(config.server));
  endpoint.server = std::move(server);
  if (!config.proxy_url.empty()) {
    KF_TRY(proxy, parseServerUrl(config.proxy_url));
    if (proxy.scheme != "http") {
      return makeError(Reason::kBadConfig, "proxy URL \"" + config.proxy_url +
                                               "\": only http:// proxies are supported");
    }
    endpoint.proxy = std::move(proxy);
  }
  if (endpoint.server.tls()) {
    KF_TRY(context, makeTlsContext(config.tls));
    endpoint.tls_context = std::move(context);
  }
  endpoint.verify_name =
      tlsServerName(config.tls.server_name.empty() ? endpoint.server.host : config.tls.server_name);
  endpoint.verify_hostname = config.tls.verify_hostname;
  endpoint.connect_timeout = config.connect_timeout;
  endpoint.max_body_bytes = config.max_response_body_bytes;
  endpoint.role = config.server_role;
  return std::make_unique<BeastTransport>(std::move(endpoint));
}

}  // namespace kf
