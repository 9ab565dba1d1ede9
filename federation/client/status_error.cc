#include "federation/client/status_error.h"

#include <charconv>
#include <string>
#include <unordered_map>

namespace kf {
namespace {

std::optional<Reason> reasonFromStatusReason(const std::string& reason) {
  static const std::unordered_map<std::string, Reason> kByName = {
      {"NotFound", Reason::kNotFound},
      {"AlreadyExists", Reason::kAlreadyExists},
      {"Conflict", Reason::kConflict},
      {"Invalid", Reason::kInvalid},
      {"BadRequest", Reason::kBadRequest},
      {"Forbidden", Reason::kForbidden},
      {"Unauthorized", Reason::kUnauthorized},
      {"Gone", Reason::kGone},
      {"Expired", Reason::kExpired},
      {"TooManyRequests", Reason::kTooManyRequests},
      {"Timeout", Reason::kTimeout},
      {"ServerTimeout", Reason::kServerTimeout},
      {"MethodNotAllowed", Reason::kMethodNotAllowed},
      {"UnsupportedMediaType", Reason::kUnsupportedMediaType},
      {"InternalError", Reason::kInternalError},
      {"ServiceUnavailable", Reason::kServiceUnavailable},
  };
  const auto it = kByName.find(reason);
  return it == kByName.end() ? std::nullopt : std::optional(it->second);
}

Reason reasonFromHttpCode(int code) {
  switch (code) {
    case 400:
      return Reason::kBadRequest;
    case 401:
      return Reason::kUnauthorized;
    case 403:
      return Reason::kForbidden;
    case 404:
      return Reason::kNotFound;
    case 405:
      return Reason::kMethodNotAllowed;
    case 409:
      return Reason::kConflict;
    case 410:
      return Reason::kGone;
    case 415:
      return Reason::kUnsupportedMediaType;
    case 422:
      return Reason::kInvalid;
    case 429:
      return Reason::kTooManyRequests;
    case 500:
      return Reason::kInternalError;
    case 503:
      return Reason::kServiceUnavailable;
    case 504:
      return Reason::kTimeout;
    default:
      return code >= 500 ? Reason::kInternalError : Reason::kUnknown;
  }
}

std::string stringField(const Json& object, const char* field) {
  const auto it = object.find(field);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<StatusCause> causesOf(const Json& status) {
  std::vector<StatusCause> causes;
  const auto details = status.find("details");
  if (details == status.end() || !details->is_object()) {
    return causes;
  }
  const auto list = details->find("causes");
  if (list == details->end() || !list->is_array()) {
    return causes;
  }
  for (const auto& cause : *list) {
    if (cause.is_object()) {
      causes.push_back({stringField(cause, "reason"), stringField(cause, "message"),
                        stringField(cause, "field")});
    }
  }
  return causes;
}

std::optional<std::chrono::seconds> retryAfterFromDetails(const Json& status) {
  const auto details = status.find("details");
  if (details == status.end() || !details->is_object()) {
    return std::nullopt;
  }
  const auto seconds = details->find("retryAfterSeconds");
  if (seconds == details->end() || !seconds->is_number_integer()) {
    return std::nullopt;
  }
  return std::chrono::seconds(seconds->get<std::int64_t>());
}

std::optional<std::chrono::seconds> parseRetryAfter(std::string_view value) {
  std::int64_t seconds = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec != std::errc() || end != value.data() + value.size() || seconds < 0) {
    return std::nullopt;  // HTTP dates are allowed by RFC 9110, but the API server never sends them
  }
  return std::chrono::seconds(seconds);
}

}  // namespace

ApiError errorFromStatusObject(const Json& status) {
  ApiError error;
  const auto code = status.find("code");
  error.http_code = code != status.end() && code->is_number_integer() ? code->get<int>() : 0;
  error.reason = reasonFromStatusReason(stringField(status, "reason"))
                     .value_or(reasonFromHttpCode(error.http_code));
  error.message = stringField(status, "message");
  error.causes = causesOf(status);
  error.retry_after = retryAfterFromDetails(status);
  return error;
}

ApiError errorFromResponse(int http_code, std::string_view body,
                           std::optional<std::string_view> retry_after_header) {
  ApiError error;
  Json status = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (status.is_object() && stringField(status, "kind") == "Status") {
    error = errorFromStatusObject(status);
    error.http_code = http_code;
    if (error.reason == Reason::kUnknown) {
      error.reason = reasonFromHttpCode(http_code);
    }
  } else {
    error.http_code = http_code;
    error.reason = reasonFromHttpCode(http_code);
    // Cap what we copy: an HTML error page from a proxy is not worth a megabyte of log.
    constexpr std::size_t kMaxBody = 512;
    error.message = std::string(body.substr(0, kMaxBody));
    if (error.message.empty()) {
      error.message = "the server responded with HTTP " + std::to_string(http_code);
    }
  }
  if (retry_after_header) {
    if (auto seconds = parseRetryAfter(*retry_after_header)) {
      error.retry_after = seconds;
    }
  }
  return error;
}

}  // namespace kf
