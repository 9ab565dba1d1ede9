#pragma once
// Go-style listen addresses ("[host]:port"), as KubeFed's --healthz-addr and --metrics-addr take.

#include <cstdint>
#include <string>

#include "apis/meta/api_error.h"

namespace kf::serving {

struct ListenAddress {
  std::string host;  // "" = every interface; IPv6 literals without brackets
  std::uint16_t port = 0;
};

// ":8080" -> {"", 8080}; "127.0.0.1:0" -> {"127.0.0.1", 0}; "[::1]:9090" -> {"::1", 9090}.
// Anything else (no port, a port that is not a number in 0..65535, unbalanced brackets, an IPv6
// literal without brackets) fails with kBadConfig naming the address.
Result<ListenAddress> parseListenAddress(const std::string& address);

}  // namespace kf::serving
