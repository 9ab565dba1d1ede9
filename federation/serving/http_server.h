#pragma once
// A small HTTP/1.1 server: exact-path routes, keep-alive, one network thread. Plain HTTP for the
// health and metrics endpoints (--healthz-addr, --metrics-addr); HTTPS with certificates that are
// picked up again when their files change for the admission webhook.

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "apis/meta/api_error.h"
#include "federation/runtime/clock.h"

namespace kf::serving {

struct ServerRequest {
  std::string method;        // "GET", "HEAD", ...
  std::string path;          // without the query: "/metrics"
  std::string query;         // after '?', undecoded; "" when absent
  std::string content_type;  // the Content-Type header; "" when absent
  std::string body;
};

struct ServerReply {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

// Runs on the server's network thread: must be quick and must not block on other servers.
// An exception from a handler becomes a 500 reply.
using Handler = std::function<ServerReply(const ServerRequest&)>;
// Exact path -> handler. Any other path gets 404.
using Routes = std::map<std::string, Handler>;

// PEM files holding the server's certificate chain (leaf first) and its private key.
struct TlsFiles {
  std::string cert_file;
  std::string key_file;
};

// A bind that finds the address in use, tried again every `interval` until `timeout` has passed:
// a process that replaces another on the same address (a supervisor restarting at once, a pod
// restarted on the host network) may start before the old one has released it.
struct BindRetry {
  Clock* clock = nullptr;  // null: no retry, an address in use fails at once
  Duration interval = std::chrono::milliseconds(250);
  Duration timeout = std::chrono::seconds(5);
};

struct ServerOptions {
  // HTTPS (TLS 1.2 or later only) when set. The files are read again for every new connection;
  // a changed pair that loads replaces the old one, one that does not is ignored with a warning.
  std::optional<TlsFiles> tls;
  // A request with a larger body gets 413 and its connection is closed.
  std::size_t max_request_body = 64 * 1024;
  BindRetry bind_retry;
};

class HttpServer {
 public:
  // Listens on `address`, "[host]:port": ":8080" (every interface), "127.0.0.1:0" (port 0: an
  // ephemeral port, see port()), "[::1]:9090", "localhost:8080". Fails with kBadConfig when the
  // address cannot be parsed or resolved or the TLS files cannot be used, and with
  // kConnectionFailed when the address cannot be bound (in use: once options.bind_retry gave up).
  static Result<std::unique_ptr<HttpServer>> start(const std::string& address, Routes routes,
                                                   ServerOptions options = {});

  ~HttpServer();  // stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The port the server listens on (the chosen one when the address asked for port 0).
  int port() const;
  // Closes the listening socket and every connection, and joins the network thread. A handler
  // that is running finishes first. Idempotent and thread-safe.
  void stop();

 private:
  struct State;  // the Beast side, kept out of this header
  explicit HttpServer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace kf::serving
