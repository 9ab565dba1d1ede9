#pragma once
// The parts of an API server (or proxy) URL the transport needs.

#include <string>
#include <string_view>

#include "apis/meta/api_error.h"

namespace kf {

struct ServerUrl {
  std::string scheme;  // "https" or "http"
  std::string host;    // without brackets for IPv6
  std::string port;
  std::string path_prefix;  // "" or "/prefix" without a trailing slash

  bool tls() const { return scheme == "https"; }
  // host:port as it goes in a Host header or a CONNECT line (IPv6 in brackets).
  std::string authority() const;
};

// Accepts "https://h", "https://h:6443/prefix/", "http://[::1]:8080"; a bare "h:6443" gets https.
// The scheme may be in any case; user information before the host is dropped.
Result<ServerUrl> parseServerUrl(const std::string& url);

// The name a TLS client sends (SNI) and checks the certificate against for `host`: without the
// trailing dot of a fully qualified name, as Go's TLS client sends and checks it (Go servers,
// kube-apiserver among them, refuse a ClientHello whose server name ends in a dot).
std::string tlsServerName(std::string_view host);

// True for IPv4 and IPv6 literals: these get no TLS SNI and are verified against IP SANs.
bool isIpLiteral(const std::string& host);

}  // namespace kf
