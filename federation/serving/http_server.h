#pragma once
// A small plain-HTTP/1.1 server for the health and metrics endpoints (--healthz-addr,
// --metrics-addr): exact-path routes, keep-alive, one network thread. Not for TLS or for large
// bodies; the admission webhook has its own server.

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "apis/meta/api_error.h"

namespace kf::serving {

struct ServerRequest {
  std::string method;  // "GET", "HEAD", ...
  std::string path;    // without the query: "/metrics"
  std::string query;   // after '?', undecoded; "" when absent
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

class HttpServer {
 public:
  // Listens on `address`, "[host]:port": ":8080" (every interface), "127.0.0.1:0" (port 0: an
  // ephemeral port, see port()), "[::1]:9090", "localhost:8080". Fails with kBadConfig when the
  // address cannot be parsed or resolved, and with kConnectionFailed when it cannot be bound.
  static Result<std::unique_ptr<HttpServer>> start(const std::string& address, Routes routes);

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
