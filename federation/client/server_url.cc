#include "federation/client/server_url.h"

#include <arpa/inet.h>

#include <charconv>

#include "apis/meta/ascii.h"

namespace kf {
namespace {

Status checkPort(const std::string& url, const std::string& port) {
  int value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535) {
    return makeError(Reason::kBadConfig,
                     "server URL \"" + url + "\": port \"" + port + "\" is not in 1..65535");
  }
  return boost::outcome_v2::success();
}

}  // namespace

std::string ServerUrl::authority() const {
  const std::string bracketed = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return bracketed + ":" + port;
}

std::string tlsServerName(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  return std::string(host);
}

bool isIpLiteral(const std::string& host) {
  unsigned char buffer[sizeof(struct in6_addr)];
  return inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
         inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

Result<ServerUrl> parseServerUrl(const std::string& url) {
  ServerUrl parsed;
  std::string rest = url;
  if (const auto scheme_end = rest.find("://"); scheme_end != std::string::npos) {
    parsed.scheme = toLower(rest.substr(0, scheme_end));  // schemes ignore case, as in Go
    rest = rest.substr(scheme_end + 3);
  } else {
    parsed.scheme = "https";
  }
  if (parsed.scheme != "https" && parsed.scheme != "http") {
    return makeError(Reason::kBadConfig, "server URL \"" + url + "\": scheme \"" + parsed.scheme +
                                             "\" is not http or https");
  }
  const auto path_start = rest.find('/');
  std::string authority = rest.substr(0, path_start);
  // Go's URL drops user information from the host it dials; credentials come from the
  // kubeconfig or the cluster's Secret.
  if (const auto at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
  if (path_start != std::string::npos) {
    parsed.path_prefix = rest.substr(path_start);
    while (!parsed.path_prefix.empty() && parsed.path_prefix.back() == '/') {
      parsed.path_prefix.pop_back();
    }
  }
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string::npos) {
      return makeError(Reason::kBadConfig, "server URL \"" + url + "\": unclosed '[' in host");
    }
    parsed.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':') {
      parsed.port = authority.substr(close + 2);
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string::npos) {
    parsed.host = authority.substr(0, colon);
    parsed.port = authority.substr(colon + 1);
  } else {
    parsed.host = authority;
  }
  if (parsed.host.empty()) {
    return makeError(Reason::kBadConfig, "server URL \"" + url + "\": missing host");
  }
  if (parsed.port.empty()) {
    parsed.port = parsed.tls() ? "443" : "80";
  }
  KF_TRYV(checkPort(url, parsed.port));
  return parsed;
}

}  // namespace kf
