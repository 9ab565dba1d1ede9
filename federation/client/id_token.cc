#include "federation/client/id_token.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "federation/client/base64.h"

namespace kf {
namespace {

constexpr auto kExpiryMargin = std::chrono::seconds(10);

ApiError invalid(const std::string& problem) {
  return makeError(Reason::kBadConfig, "the id-token is not a valid JWT: " + problem);
}

// base64url without padding, as JWTs carry it, through the standard alphabet's decoder.
std::optional<std::string> base64UrlDecode(std::string text) {
  if (text.find_first_of("+/=") != std::string::npos) return std::nullopt;
  std::replace(text.begin(), text.end(), '-', '+');
  std::replace(text.begin(), text.end(), '_', '/');
  return base64Decode(text);
}

}  // namespace

Result<WallTime> idTokenExpiry(const std::string& id_token) {
  const auto first_dot = id_token.find('.');
  const auto second_dot =
      first_dot == std::string::npos ? std::string::npos : id_token.find('.', first_dot + 1);
  if (second_dot == std::string::npos || id_token.find('.', second_dot + 1) != std::string::npos) {
    return invalid("expected three parts separated by dots");
  }
  const auto payload = base64UrlDecode(id_token.substr(first_dot + 1, second_dot - first_dot - 1));
  if (!payload) return invalid("its payload is not base64url");
  const nlohmann::json claims = nlohmann::json::parse(*payload, nullptr, false);
  if (!claims.is_object()) return invalid("its payload is not a JSON object");
  const auto exp = claims.find("exp");
  if (exp == claims.end()) return WallTime{};
  if (!exp->is_number()) return invalid("its exp claim is not a number");
  const double seconds = std::trunc(exp->get<double>());
  // Past the year 5000: as good as never expiring (and beyond what a time_point may hold).
  constexpr double kFarFuture = 1e11;
  if (seconds >= kFarFuture) return WallTime::max();
  if (seconds <= 0) return WallTime{};
  return WallTime{std::chrono::seconds(static_cast<std::int64_t>(seconds))};
}

bool idTokenExpiredAt(WallTime expiry, WallTime now) { return !(now + kExpiryMargin < expiry); }

}  // namespace kf
