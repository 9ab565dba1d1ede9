#pragma once
// Requests to one API server: authentication (asked of the credentials per request, sent once
// more with renewed credentials after a 401), the client-side rate limit, retries of idempotent
// requests with backoff, non-2xx responses turned into typed ApiErrors, and client-go's
// rest_client_* metrics (federation/metrics/rest_client_metrics.h).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "apis/meta/api_error.h"
#include "apis/meta/object.h"
#include "federation/client/credentials.h"
#include "federation/client/list_options.h"
#include "federation/client/rest_config.h"
#include "federation/client/transport.h"
#include "federation/metrics/rest_client_metrics.h"
#include "federation/runtime/backoff.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"
#include "federation/runtime/token_bucket.h"

namespace kf {

struct RetryPolicy {
  int max_attempts = 5;
  Duration initial_backoff = std::chrono::milliseconds(200);
  Duration max_backoff = std::chrono::seconds(5);
};

struct RestRequest {
  std::string method = "GET";
  std::string path;  // "/api/v1/namespaces/x/configmaps"
  std::vector<std::pair<std::string, std::string>> query;
  std::string body;
  std::string content_type = "application/json";
  // Safe to send twice: GET, PUT (guarded by resourceVersion), DELETE. POST and PATCH are
  // retried only when the server said it did not process them (429).
  bool idempotent = true;
  std::optional<std::chrono::milliseconds> timeout;  // default: the config's request_timeout
};

class RestClient {
 public:
  RestClient(RestConfig config, TransportPtr transport, Clock& clock, RetryPolicy retry = {});
  // With credentials of the caller's (tests): `config`'s own are not used.
  RestClient(RestConfig config, TransportPtr transport, CredentialsPtr credentials, Clock& clock,
             RetryPolicy retry = {});

  // The client for `config` over the real network transport.
  static Result<std::unique_ptr<RestClient>> create(const RestConfig& config, Clock& clock);

  // Success only for 2xx; the body is returned as received.
  Result<HttpResponse> send(const RestRequest& request);
  // send() and decode the body as JSON.
  Result<Json> sendJson(const RestRequest& request);
  // For watches: returns once a 2xx response's headers arrived; non-2xx become errors.
  Result<ResponseStreamPtr> openStream(const RestRequest& request);

  const RestConfig& config() const { return config_; }
  // The clock its retries and rate limit wait on; callers that poll through the client wait on it
  // too, so that a test's fake clock drives them.
  Clock& clock() const { return clock_; }

 private:
  HttpRequest toHttp(const RestRequest& request, const RequestCredentials& credentials) const;
  void waitBeforeRetry(Backoff& backoff, const ApiError& error);
  Result<HttpResponse> sendAttempts(const RestRequest& request);
  Result<ResponseStreamPtr> openStreamAttempt(const RestRequest& request,
                                              const RequestCredentials& credentials);

  RestConfig config_;
  TransportPtr transport_;
  CredentialsPtr credentials_;
  Clock& clock_;
  RetryPolicy retry_;
  TokenBucket rate_limiter_;
  metrics::RestClientMetrics metrics_;
};

// "a=b&c=d" with each key and value percent-encoded.
std::string encodeQuery(const std::vector<std::pair<std::string, std::string>>& query);

}  // namespace kf
