#pragma once
// MD5 as KubeFed uses it: a content fingerprint for PropagatedVersion, not a security measure.

#include <string>
#include <string_view>

namespace kf {

// Lower-case hex digest, like Go's hex.EncodeToString(md5.Sum(bytes)).
std::string md5Hex(std::string_view bytes);

}  // namespace kf
