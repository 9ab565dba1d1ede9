#include "federation/client/impersonation.h"

#include <cstdio>
#include <string_view>

namespace kf {
namespace {

// RFC 7230 token characters: what a header field name may contain.
bool isHeaderNameByte(unsigned char c) {
  static constexpr std::string_view kPunctuation = "!#$&'*+-.^_`|~";
  const bool alphanumeric =
      (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return alphanumeric || kPunctuation.find(static_cast<char>(c)) != std::string_view::npos;
}

}  // namespace

std::string escapeExtraKey(const std::string& key) {
  std::string out;
  for (const unsigned char c : key) {
    if (isHeaderNameByte(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof(escaped), "%%%02X", c);
      out += escaped;
    }
  }
  return out;
}

HeaderList impersonationHeaders(const Impersonation& impersonation) {
  HeaderList headers;
  if (impersonation.user.empty()) return headers;
  headers.emplace_back("Impersonate-User", impersonation.user);
  if (!impersonation.uid.empty()) headers.emplace_back("Impersonate-Uid", impersonation.uid);
  for (const std::string& group : impersonation.groups) {
    headers.emplace_back("Impersonate-Group", group);
  }
  for (const auto& [key, values] : impersonation.extra) {
    for (const std::string& value : values) {
      headers.emplace_back("Impersonate-Extra-" + escapeExtraKey(key), value);
    }
  }
  return headers;
}

}  // namespace kf
