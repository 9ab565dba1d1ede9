#pragma once
// Go's net/url Parse, as KubeFed v0.8.1 was built with it (Go 1.16), for the URLs a
// KubeFedCluster holds: which texts it accepts, the parts KubeFed's validation and client-go look
// at, and its error text for the ones it rejects. KubeFed passes those errors on verbatim, so the
// wording is Go's.

#include <string>
#include <string_view>

#include "apis/meta/api_error.h"

namespace kf::core {

struct GoUrl {
  std::string scheme;  // lower-cased; "" when the text has none
  std::string host;    // URL.Host: host[:port], an IPv6 literal in brackets, no user info
  std::string path;    // URL.Path, unescaped

  // URL.Port(): the digits after the host's last colon, "" when there are none.
  std::string port() const;
};

// url.Parse(text). The error's message is Go's, as it prints it:
// `parse "https://a b": invalid character " " in host name`.
Result<GoUrl> parseGoUrl(std::string_view text);

}  // namespace kf::core
