#pragma once
// The one seam between the client and the network: HTTP/1.1 over TLS (or plain TCP) to one API
// server. The implementation (Boost.Beast) stays behind this header so nothing else sees it.
// A request runs on its caller's thread; a stream's connection is served by the process's small,
// fixed set of I/O threads, so that a watch read with readAsync() holds no thread while it idles.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apis/meta/api_error.h"
#include "federation/client/client_certificate.h"
#include "federation/client/rest_config.h"

namespace kf {

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // path and query, starting with '/', without the server's path prefix
  std::map<std::string, std::string> headers;
  // Headers a request may carry several times (Impersonate-Group), sent as separate lines.
  std::vector<std::pair<std::string, std::string>> repeated_headers;
  // Presented instead of the config's client certificate (one an exec plugin issued); null: the
  // config's own, if any.
  std::shared_ptr<const ClientCertificate> client_certificate;
  std::string body;
  // Deadline for the whole exchange (roundTrip) or for the headers (openStream).
  std::chrono::milliseconds timeout{60'000};
};

struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;

  std::optional<std::string> header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::nullopt : std::optional(it->second);
  }
};

// A response whose body is read as it arrives (a watch). Its connection is not shared.
class ResponseStream {
 public:
  virtual ~ResponseStream() = default;
  virtual int status() const = 0;
  // Reads some body bytes, blocking until at least one arrives. 0 bytes: the body ended.
  // Fails with kClientTimeout when `idle_timeout` passes with nothing received (nullopt: never).
  virtual Result<std::size_t> read(char* buffer, std::size_t size,
                                   std::optional<std::chrono::milliseconds> idle_timeout) = 0;
  // Reads some body bytes without holding the calling thread: `done` runs once, with what read()
  // would return, on an I/O thread. `buffer` must stay valid until then; one read at a time.
  // This default reads at once, for streams whose bytes are already at hand; a network stream
  // waits on the I/O threads instead.
  virtual void readAsync(char* buffer, std::size_t size,
                         std::optional<std::chrono::milliseconds> idle_timeout,
                         std::function<void(Result<std::size_t>)> done) {
    done(read(buffer, size, idle_timeout));
  }
  // Thread-safe: makes a blocked read() or a pending readAsync() end with kCancelled promptly;
  // later reads fail the same.
  virtual void cancel() = 0;
};
using ResponseStreamPtr = std::unique_ptr<ResponseStream>;

class Transport {
 public:
  virtual ~Transport() = default;
  // Sends a request and reads the whole response. Connection-level failures are errors; any
  // HTTP status (including 4xx/5xx) is a successful round trip.
  virtual Result<HttpResponse> roundTrip(const HttpRequest& request) = 0;
  // Sends a request and returns once the response headers arrived.
  virtual Result<ResponseStreamPtr> openStream(const HttpRequest& request) = 0;
};
using TransportPtr = std::unique_ptr<Transport>;

// A keep-alive pooled HTTP(S) transport for `config` (server, TLS, proxy, timeouts).
// Fails with kBadConfig when the server URL, the certificates or the key cannot be used.
Result<TransportPtr> makeTransport(const RestConfig& config);

}  // namespace kf
