#pragma once
// List continue tokens, in the API server's format: base64url (unpadded) of
// {"v":"meta.k8s.io/v1","rv":<list resourceVersion>,"start":"<key after which to go on>\u0000"}.

#include <cstdint>
#include <string>

#include "apis/meta/api_error.h"

namespace kf::sim {

struct ContinueToken {
  std::uint64_t resource_version = 0;
  std::string start_after;  // the last key of the page before
};

std::string encodeContinueToken(const ContinueToken& token);
// Fails (as the API server's 400 says it) on a token this format cannot read.
Result<ContinueToken> decodeContinueToken(const std::string& text);

}  // namespace kf::sim
