#pragma once
// Errors as values: every expected failure of a Kubernetes API call (or of reading config from
// outside) is an ApiError inside a Result<T>. Reasons mirror metav1.StatusReason plus the
// transport failures that never reach a server.

#include <boost/outcome/result.hpp>
#include <boost/outcome/try.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace kf {

enum class Reason {
  kUnknown,
  kNotFound,
  kAlreadyExists,
  kConflict,
  kInvalid,
  kBadRequest,
  kForbidden,
  kUnauthorized,
  kGone,     // 410: resourceVersion too old for a watch or a continue token
  kExpired,  // StatusReasonExpired: a list continue token expired
  kTooManyRequests,
  kTimeout,        // the server timed the request out (504 / StatusReasonTimeout)
  kServerTimeout,  // StatusReasonServerTimeout
  kMethodNotAllowed,
  kUnsupportedMediaType,
  kInternalError,
  kServiceUnavailable,
  kConnectionFailed,  // no TCP/TLS connection, or it dropped: never reached the server
  kClientTimeout,     // our own connect/read deadline passed
  kTlsVerification,   // the server's certificate did not verify
  kBadConfig,         // kubeconfig / in-cluster config is wrong
  kBadResponse,       // the server answered something we cannot decode
  kCancelled,         // the caller stopped the request
};

const char* reasonName(Reason reason);

struct StatusCause {
  std::string reason;
  std::string message;
  std::string field;
};

struct ApiError {
  Reason reason = Reason::kUnknown;
  int http_code = 0;  // 0 when no HTTP response was received
  std::string message;
  std::vector<StatusCause> causes;
  std::optional<std::chrono::seconds> retry_after;

  // "NotFound (404): configmaps \"x\" not found"
  std::string describe() const;
};

inline ApiError makeError(Reason reason, std::string message) {
  return ApiError{reason, 0, std::move(message), {}, std::nullopt};
}

// The same error with what was being done in front ("listing the stored x: <message>"); the
// reason and the rest stay, so callers still tell NotFound from Conflict.
inline ApiError withContext(ApiError error, const std::string& context) {
  error.message = context + ": " + error.message;
  return error;
}

inline bool isNotFound(const ApiError& e) { return e.reason == Reason::kNotFound; }
inline bool isAlreadyExists(const ApiError& e) { return e.reason == Reason::kAlreadyExists; }
inline bool isConflict(const ApiError& e) { return e.reason == Reason::kConflict; }
inline bool isInvalid(const ApiError& e) { return e.reason == Reason::kInvalid; }
inline bool isForbidden(const ApiError& e) { return e.reason == Reason::kForbidden; }
inline bool isUnauthorized(const ApiError& e) { return e.reason == Reason::kUnauthorized; }
inline bool isGone(const ApiError& e) {
  return e.reason == Reason::kGone || e.reason == Reason::kExpired;
}
inline bool isTooManyRequests(const ApiError& e) { return e.reason == Reason::kTooManyRequests; }
// Worth retrying an idempotent request: the server was busy or the connection broke.
bool isRetriable(const ApiError& e);

template <class T>
using Result = boost::outcome_v2::unchecked<T, ApiError>;
using Status = Result<void>;

#define KF_TRY(var, expr) BOOST_OUTCOME_TRY(auto&& var, expr)
#define KF_TRYV(expr) BOOST_OUTCOME_TRYV(expr)

}  // namespace kf
