#pragma once
// A cap on how deeply a server's JSON may nest. The parser itself does not recurse, but much
// that handles a decoded object does (printing it as the informer's compact text, comparing,
// hashing): an object nested a million levels deep, a few MiB from a broken or hostile server,
// would overflow the stack of the thread that handles it. Go's encoding/json (and the API
// server's decoder, a fork of it) refuses more than 10,000 levels, so no object an API server
// stores nests deeper; a list or a watch event wraps it in at most two levels more.

#include <cstddef>
#include <string_view>

namespace kf {

inline constexpr std::size_t kMaxObjectDepth = 10'000;
inline constexpr std::size_t kMaxJsonDepth = kMaxObjectDepth + 2;

// Whether `text`'s arrays and objects nest deeper than `limit`, brackets inside strings not
// counted. `text` need not be valid JSON.
bool nestsDeeperThan(std::string_view text, std::size_t limit = kMaxJsonDepth);

}  // namespace kf
