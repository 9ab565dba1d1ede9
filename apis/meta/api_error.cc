#include "apis/meta/api_error.h"

#include <string>

namespace kf {

const char* reasonName(Reason reason) {
  switch (reason) {
    case Reason::kUnknown:
      return "Unknown";
    case Reason::kNotFound:
      return "NotFound";
    case Reason::kAlreadyExists:
      return "AlreadyExists";
    case Reason::kConflict:
      return "Conflict";
    case Reason::kInvalid:
      return "Invalid";
    case Reason::kBadRequest:
      return "BadRequest";
    case Reason::kForbidden:
      return "Forbidden";
    case Reason::kUnauthorized:
      return "Unauthorized";
    case Reason::kGone:
      return "Gone";
    case Reason::kExpired:
      return "Expired";
    case Reason::kTooManyRequests:
      return "TooManyRequests";
    case Reason::kTimeout:
      return "Timeout";
    case Reason::kServerTimeout:
      return "ServerTimeout";
    case Reason::kMethodNotAllowed:
      return "MethodNotAllowed";
    case Reason::kUnsupportedMediaType:
      return "UnsupportedMediaType";
    case Reason::kInternalError:
      return "InternalError";
    case Reason::kServiceUnavailable:
      return "ServiceUnavailable";
    case Reason::kConnectionFailed:
      return "ConnectionFailed";
    case Reason::kClientTimeout:
      return "ClientTimeout";
    case Reason::kTlsVerification:
      return "TLSVerificationFailed";
    case Reason::kBadConfig:
      return "BadConfig";
    case Reason::kBadResponse:
      return "BadResponse";
    case Reason::kCancelled:
      return "Cancelled";
  }
  return "Unknown";
}

std::string ApiError::describe() const {
  std::string text = reasonName(reason);
  if (http_code != 0) {
    text += " (" + std::to_string(http_code) + ")";
  }
  text += ": " + message;
  for (const auto& cause : causes) {
    text += "; " + (cause.field.empty() ? std::string() : cause.field + ": ") + cause.message;
  }
  return text;
}

bool isRetriable(const ApiError& e) {
  switch (e.reason) {
    case Reason::kTooManyRequests:
    case Reason::kServerTimeout:
    case Reason::kTimeout:
    case Reason::kInternalError:
    case Reason::kServiceUnavailable:
    case Reason::kConnectionFailed:
    case Reason::kClientTimeout:
      return true;
    default:
      return e.http_code >= 500;
  }
}

}  // namespace kf
