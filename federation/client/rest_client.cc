#include "federation/client/rest_client.h"

#include <algorithm>

#include "federation/client/status_error.h"
#include "federation/runtime/interruptible_sleep.h"

namespace kf {
namespace {

bool isSuccess(int status) { return status >= 200 && status < 300; }

bool shouldRetry(const RestRequest& request, const ApiError& error) {
  if (error.reason == Reason::kTooManyRequests) {
    return true;  // the server rejected it before doing anything
  }
  return request.idempotent && isRetriable(error);
}

ApiError errorOf(const HttpResponse& failed) {
  const auto retry_after = failed.header("retry-after");
  return errorFromResponse(
      failed.status, failed.body,
      retry_after ? std::optional<std::string_view>(*retry_after) : std::nullopt);
}

}  // namespace

std::string encodeQuery(const std::vector<std::pair<std::string, std::string>>& query) {
  auto encode = [](const std::string& text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : text) {
      if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
        out.push_back(static_cast<char>(c));
      } else {
        out += {'%', kHex[c >> 4], kHex[c & 0xF]};
      }
    }
    return out;
  };
  std::string out;
  for (const auto& [key, value] : query) {
    if (!out.empty()) out.push_back('&');
    out += encode(key) + "=" + encode(value);
  }
  return out;
}

RestClient::RestClient(RestConfig config, TransportPtr transport, Clock& clock, RetryPolicy retry)
    : RestClient(config, std::move(transport), credentialsFor(config, clock), clock, retry) {}

RestClient::RestClient(RestConfig config, TransportPtr transport, CredentialsPtr credentials,
                       Clock& clock, RetryPolicy retry)
    : config_(std::move(config)),
      transport_(std::move(transport)),
      credentials_(std::move(credentials)),
      clock_(clock),
      retry_(retry),
      rate_limiter_(config_.qps, config_.burst, clock),
      metrics_(config_.server) {}

Result<std::unique_ptr<RestClient>> RestClient::create(const RestConfig& config, Clock& clock) {
  KF_TRY(transport, makeTransport(config));
  return std::make_unique<RestClient>(config, std::move(transport), clock);
}

HttpRequest RestClient::toHttp(const RestRequest& request,
                               const RequestCredentials& credentials) const {
  HttpRequest http;
  http.method = request.method;
  http.target = request.path;
  if (!request.query.empty()) http.target += "?" + encodeQuery(request.query);
  http.headers["Accept"] = "application/json";
  http.headers["User-Agent"] = config_.user_agent;
  if (!request.body.empty()) http.headers["Content-Type"] = request.content_type;
  if (!credentials.authorization.empty()) {
    http.headers["Authorization"] = credentials.authorization;
  }
  http.repeated_headers = credentials.impersonation;
  http.client_certificate = credentials.client_certificate;
  http.body = request.body;
  http.timeout = request.timeout.value_or(config_.request_timeout);
  return http;
}

void RestClient::waitBeforeRetry(Backoff& backoff, const ApiError& error) {
  Duration delay = backoff.next();
  if (error.retry_after) delay = *error.retry_after;  // the server knows best
  sleepUnlessStopped(clock_, std::stop_token{}, delay);
}

Result<HttpResponse> RestClient::send(const RestRequest& request) {
  // client-go times the whole request: the rate limit's wait, every attempt and every backoff.
  const SteadyTime start = clock_.now();
  auto result = sendAttempts(request);
  metrics_.observeRequest(request.method, request.path, request.query, clock_.now() - start);
  return result;
}

Result<HttpResponse> RestClient::sendAttempts(const RestRequest& request) {
  Backoff backoff(retry_.initial_backoff, retry_.max_backoff);
  bool renewed = false;  // credentials are renewed once per request, after a 401
  for (int attempt = 1;; ++attempt) {
    auto credentials = credentials_->forRequest();
    if (!credentials) {
      // client-go fetches credentials inside the round trip: a failure is an attempt's error.
      metrics_.countAttempt(request.method, 0);
      return credentials.error();
    }
    rate_limiter_.accept();
    auto response = transport_->roundTrip(toHttp(request, credentials.value()));
    metrics_.countAttempt(request.method, response ? response.value().status : 0);
    ApiError error;
    if (!response) {
      error = response.error();
    } else if (isSuccess(response.value().status)) {
      return response;
    } else {
      error = errorOf(response.value());
    }
    // A 401 means the server did nothing, so even a POST is safe to send again.
    if (isUnauthorized(error) && !renewed) {
      renewed = true;
      if (credentials_->renewAfterRejection(credentials.value())) continue;
    }
    if (attempt >= retry_.max_attempts || !shouldRetry(request, error)) return error;
    waitBeforeRetry(backoff, error);
  }
}

Result<Json> RestClient::sendJson(const RestRequest& request) {
  KF_TRY(response, send(request));
  Json decoded = Json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (decoded.is_discarded()) {
    return makeError(Reason::kBadResponse,
                     request.method + " " + request.path + ": the response is not valid JSON");
  }
  return decoded;
}

Result<ResponseStreamPtr> RestClient::openStream(const RestRequest& request) {
  for (bool renewed = false;; renewed = true) {
    auto credentials = credentials_->forRequest();
    if (!credentials) {
      metrics_.countAttempt(request.method, 0);
      return credentials.error();
    }
    KF_TRY(stream, openStreamAttempt(request, credentials.value()));
    if (isSuccess(stream->status())) return std::move(stream);
    std::string body;
    char buffer[4096];
    while (body.size() < 64 * 1024) {
      auto n = stream->read(buffer, sizeof(buffer), std::chrono::seconds(10));
      if (!n || n.value() == 0) break;
      body.append(buffer, n.value());
    }
    ApiError error = errorFromResponse(stream->status(), body, std::nullopt);
    if (!isUnauthorized(error) || renewed ||
        !credentials_->renewAfterRejection(credentials.value())) {
      return error;
    }
  }
}

// A watch is counted in rest_client_requests_total but not timed, as client-go does.
Result<ResponseStreamPtr> RestClient::openStreamAttempt(const RestRequest& request,
                                                        const RequestCredentials& credentials) {
  rate_limiter_.accept();
  auto stream = transport_->openStream(toHttp(request, credentials));
  metrics_.countAttempt(request.method, stream ? stream.value()->status() : 0);
  return stream;
}

}  // namespace kf
