#include "federation/serving/listen_address.h"

#include <charconv>

namespace kf::serving {
namespace {

ApiError badAddress(const std::string& address, const std::string& why) {
  return makeError(Reason::kBadConfig, "invalid listen address \"" + address + "\": " + why +
                                           " (expected [host]:port, e.g. \":8080\" or "
                                           "\"127.0.0.1:0\")");
}

}  // namespace

Result<ListenAddress> parseListenAddress(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos) return badAddress(address, "no port");
  std::string host = address.substr(0, colon);
  const std::string port_text = address.substr(colon + 1);

  if (!host.empty() && host.front() == '[') {
    if (host.back() != ']') return badAddress(address, "unbalanced brackets");
    host = host.substr(1, host.size() - 2);
  } else if (host.find_first_of("[]:") != std::string::npos) {
    return badAddress(address, "an IPv6 host must be in brackets");
  }

  unsigned port = 0;
  const char* end = port_text.data() + port_text.size();
  const auto parsed = std::from_chars(port_text.data(), end, port);
  if (port_text.empty() || parsed.ec != std::errc() || parsed.ptr != end || port > 65535) {
    return badAddress(address, "the port must be a number from 0 to 65535");
  }
  return ListenAddress{std::move(host), static_cast<std::uint16_t>(port)};
}

}  // namespace kf::serving
