#pragma once
// What the client needs to know about an OpenID Connect id-token: when it expires. The claims are
// read without checking the signature (the API server checks it); the token itself never
// appears in a message.

#include <chrono>
#include <string>

#include "apis/meta/api_error.h"

namespace kf {

using WallTime = std::chrono::system_clock::time_point;

// The token's exp claim (seconds since the epoch; a fraction is dropped). A token without one
// has expired long ago, as client-go reads it. Fails when the token is not a JWT whose payload
// is base64url-encoded JSON.
Result<WallTime> idTokenExpiry(const std::string& id_token);

// client-go's rule: a token counts as expired 10 s before its exp, so that it does not expire
// on its way to the server or on a server whose clock is slightly ahead.
bool idTokenExpiredAt(WallTime expiry, WallTime now);

}  // namespace kf
