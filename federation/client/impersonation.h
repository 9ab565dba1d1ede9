#pragma once
// The Impersonate-* headers that make the API server treat a request as another user's, as
// client-go sends them: one Impersonate-Group line per group and one Impersonate-Extra-<key>
// line per value.

#include <string>
#include <utility>
#include <vector>

#include "federation/client/rest_config.h"

namespace kf {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// No headers when `impersonation.user` is empty.
HeaderList impersonationHeaders(const Impersonation& impersonation);

// An extra key as a header-name suffix: bytes a header name may not hold, and '%', become %XX
// (the server unescapes them), e.g. "scopes.example.com/x" -> "scopes.example.com%2Fx".
std::string escapeExtraKey(const std::string& key);

}  // namespace kf
