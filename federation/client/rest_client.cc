#include "federation/client/rest_client.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "federation/client/status_error.h"
#include "federation/runtime/interruptible_sleep.h"

namespace kf {
namespace {

constexpr auto kTokenFileRefresh = std::chrono::minutes(1);

bool isSuccess(int status) { return status >= 200 && status < 300; }

bool shouldRetry(const RestRequest& request, const ApiError& error) {
  if (error.reason == Reason::kTooManyRequests) {
    return true;  // the server rejected it before doing anything
  }
  return request.idempotent && isRetriable(error);
}

std::string readTokenFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

std::string trimmedToken(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
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
    : config_(std::move(config)),
      transport_(std::move(transport)),
      clock_(clock),
      retry_(retry),
      rate_limiter_(config_.qps, config_.burst, clock) {}

Result<std::unique_ptr<RestClient>> RestClient::create(const RestConfig& config, Clock& clock) {
  KF_TRY(transport, makeTransport(config));
  return std::make_unique<RestClient>(config, std::move(transport), clock);
}

std::string RestClient::bearerToken() {
  if (config_.bearer_token_file.empty()) return config_.bearer_token;
  // Projected service-account tokens rotate on disk: re-read now and then, as kubelet refreshes.
  MutexLock lock(token_mu_);
  const auto now = clock_.now();
  if (cached_token_.empty() || now - token_read_at_ >= kTokenFileRefresh) {
    std::string token = trimmedToken(readTokenFile(config_.bearer_token_file));
    cached_token_ = token.empty() ? config_.bearer_token : std::move(token);
    token_read_at_ = now;
  }
  return cached_token_;
}

HttpRequest RestClient::toHttp(const RestRequest& request) {
  HttpRequest http;
  http.method = request.method;
  http.target = request.path;
  if (!request.query.empty()) http.target += "?" + encodeQuery(request.query);
  http.headers["Accept"] = "application/json";
  http.headers["User-Agent"] = config_.user_agent;
  if (!request.body.empty()) http.headers["Content-Type"] = request.content_type;
  if (auto token = bearerToken(); !token.empty()) {
    http.headers["Authorization"] = "Bearer " + token;
  }
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
  const HttpRequest http = toHttp(request);
  Backoff backoff(retry_.initial_backoff, retry_.max_backoff);
  for (int attempt = 1;; ++attempt) {
    rate_limiter_.accept();
    auto response = transport_->roundTrip(http);
    ApiError error;
    if (!response) {
      error = response.error();
    } else if (isSuccess(response.value().status)) {
      return response;
    } else {
      const auto& failed = response.value();
      const auto retry_after = failed.header("retry-after");
      error = errorFromResponse(
          failed.status, failed.body,
          retry_after ? std::optional<std::string_view>(*retry_after) : std::nullopt);
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
  rate_limiter_.accept();
  KF_TRY(stream, transport_->openStream(toHttp(request)));
  if (isSuccess(stream->status())) return std::move(stream);
  std::string body;
  char buffer[4096];
  while (body.size() < 64 * 1024) {
    auto n = stream->read(buffer, sizeof(buffer), std::chrono::seconds(10));
    if (!n || n.value() == 0) break;
    body.append(buffer, n.value());
  }
  return errorFromResponse(stream->status(), body, std::nullopt);
}

}  // namespace kf
