#include "tests/support/simulated_member/continue_token.h"

#include <algorithm>

#include "apis/meta/object.h"
#include "federation/client/base64.h"

namespace kf::sim {
namespace {

ApiError invalid(const std::string& why) {
  return makeError(Reason::kBadRequest, "invalid continue token: " + why);
}

}  // namespace

std::string encodeContinueToken(const ContinueToken& token) {
  const Json body = {{"v", "meta.k8s.io/v1"},
                     {"rv", token.resource_version},
                     {"start", token.start_after + std::string(1, '\0')}};
  std::string text = base64Encode(body.dump());
  std::replace(text.begin(), text.end(), '+', '-');
  std::replace(text.begin(), text.end(), '/', '_');
  text.erase(std::find(text.begin(), text.end(), '='), text.end());
  return text;
}

Result<ContinueToken> decodeContinueToken(const std::string& text) {
  std::string standard = text;
  std::replace(standard.begin(), standard.end(), '-', '+');
  std::replace(standard.begin(), standard.end(), '_', '/');
  const auto decoded = base64Decode(standard);
  if (!decoded) return invalid("continue key is not valid base64");
  const Json body = Json::parse(*decoded, nullptr, false);
  if (!body.is_object() || body.value("v", "") != "meta.k8s.io/v1" || !body.contains("rv") ||
      !body["rv"].is_number_unsigned() || !body.contains("start") || !body["start"].is_string()) {
    return invalid("continue key is not valid: not a continue token of this server");
  }
  std::string start = body["start"].get<std::string>();
  if (start.empty() || start.back() != '\0') return invalid("continue key is not valid");
  start.pop_back();
  return ContinueToken{body["rv"].get<std::uint64_t>(), std::move(start)};
}

}  // namespace kf::sim
