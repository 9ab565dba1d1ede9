#include "apis/core/go_url.h"

#include "apis/meta/ascii.h"
#include "apis/meta/field_errors.h"

namespace kf::core {
namespace {

constexpr auto npos = std::string_view::npos;

// Where a part sits decides which bytes and escapes it may hold (Go's encoding modes).
enum class Part { kPath, kHost, kZone, kUserInfo, kFragment };

ApiError goError(std::string message) { return makeError(Reason::kInvalid, std::move(message)); }

bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool isAsciiAlnum(char c) { return isAsciiLetter(c) || isAsciiDigit(c); }

int hexValue(char c) {
  if (isAsciiDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool inSet(char c, std::string_view set) { return set.find(c) != npos; }

// What a host may hold as it is: letters, digits, the unreserved marks, the sub-delimiters, the
// colon and brackets of host:port and [IPv6], and '<', '>', '"', which Go lets through too.
bool isHostByte(char c) { return isAsciiAlnum(c) || inSet(c, "-_.~!$&'()*+,;=:[]<>\""); }

bool isUserInfoByte(char c) { return isAsciiAlnum(c) || inSet(c, "-._:~!$&'()*+,;=%@"); }

bool hasControlByte(std::string_view text) {
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return true;
  }
  return false;
}

// One %XX escape of `part`, decoded; an error for a malformed one, or for one that a host (or an
// IPv6 zone) may not use: a host escapes only non-ASCII bytes, a zone only what a host could
// hold as it is (or a space); "%25" is the zone's '%' in both.
Result<char> unescapeOne(std::string_view s, std::size_t at, Part part) {
  const std::string_view escape = s.substr(at, 3);
  if (escape.size() < 3 || hexValue(escape[1]) < 0 || hexValue(escape[2]) < 0) {
    return goError("invalid URL escape " + meta::goQuote(escape));
  }
  const char value = static_cast<char>(hexValue(escape[1]) * 16 + hexValue(escape[2]));
  const bool ascii = static_cast<unsigned char>(value) < 0x80;
  const bool bad_host = part == Part::kHost && ascii && escape != "%25";
  const bool bad_zone =
      part == Part::kZone && escape != "%25" && value != ' ' && !(ascii && isHostByte(value));
  if (bad_host || bad_zone) return goError("invalid URL escape " + meta::goQuote(escape));
  return value;
}

// Go's unescape: the part decoded, or the first escape or host byte it rejects.
Result<std::string> unescape(std::string_view s, Part part) {
  const bool host_like = part == Part::kHost || part == Part::kZone;
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '%') {
      KF_TRY(value, unescapeOne(s, i, part));
      out += value;
      i += 3;
      continue;
    }
    if (host_like && static_cast<unsigned char>(s[i]) < 0x80 && !isHostByte(s[i])) {
      return goError("invalid character " + meta::goQuote(s.substr(i, 1)) + " in host name");
    }
    out += s[i++];
  }
  return out;
}

// ":digits", ":" or nothing.
bool isOptionalPort(std::string_view colon_port) {
  if (colon_port.empty()) return true;
  if (colon_port.front() != ':') return false;
  for (char c : colon_port.substr(1)) {
    if (!isAsciiDigit(c)) return false;
  }
  return true;
}

ApiError portError(std::string_view colon_port) {
  return goError("invalid port " + meta::goQuote(colon_port) + " after host");
}

// The host of an authority: a name or address with an optional port, or [IPv6 literal], whose
// zone ("%25" then the zone) may escape more than the address may.
Result<std::string> parseHost(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    const auto close = host.rfind(']');
    if (close == npos) return goError("missing ']' in host");
    if (!isOptionalPort(host.substr(close + 1))) return portError(host.substr(close + 1));
    if (const auto zone = host.substr(0, close).find("%25"); zone != npos) {
      KF_TRY(address, unescape(host.substr(0, zone), Part::kHost));
      KF_TRY(zone_id, unescape(host.substr(zone, close - zone), Part::kZone));
      KF_TRY(rest, unescape(host.substr(close), Part::kHost));
      return address + zone_id + rest;
    }
  } else if (const auto colon = host.rfind(':'); colon != npos) {
    if (!isOptionalPort(host.substr(colon))) return portError(host.substr(colon));
  }
  return unescape(host, Part::kHost);
}

// user[:password]@host: the host; the user information is checked and dropped.
Result<std::string> parseAuthority(std::string_view authority) {
  const auto at = authority.rfind('@');
  KF_TRY(host, parseHost(at == npos ? authority : authority.substr(at + 1)));
  if (at == npos) return host;
  const std::string_view user_info = authority.substr(0, at);
  for (char c : user_info) {
    if (!isUserInfoByte(c)) return goError("net/url: invalid userinfo");
  }
  const auto colon = user_info.find(':');
  KF_TRYV(unescape(user_info.substr(0, colon), Part::kUserInfo));
  if (colon != npos) {
    KF_TRYV(unescape(user_info.substr(colon + 1), Part::kUserInfo));
  }
  return host;
}

struct SchemeSplit {
  std::string scheme;
  std::string_view rest;
};

// A scheme is a letter, then letters, digits, '+', '-' or '.', up to the first ':'; a text that
// starts otherwise has none.
Result<SchemeSplit> splitScheme(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (isAsciiLetter(c)) continue;
    if (isAsciiDigit(c) || c == '+' || c == '-' || c == '.') {
      if (i == 0) return SchemeSplit{"", text};
      continue;
    }
    if (c == ':') {
      if (i == 0) return goError("missing protocol scheme");
      return SchemeSplit{toLower(text.substr(0, i)), text.substr(i + 1)};
    }
    return SchemeSplit{"", text};
  }
  return SchemeSplit{"", text};
}

// Everything before '#'.
Result<GoUrl> parseBeforeFragment(std::string_view text) {
  if (hasControlByte(text)) return goError("net/url: invalid control character in URL");
  KF_TRY(split, splitScheme(text));
  GoUrl url;
  url.scheme = std::move(split.scheme);
  std::string_view rest = split.rest.substr(0, split.rest.find('?'));
  if (rest.empty() || rest.front() != '/') {
    if (!url.scheme.empty()) return url;  // "scheme:opaque": no host, no path
    const auto colon = rest.find(':');
    if (colon != npos && colon < rest.find('/')) {
      return goError("first path segment in URL cannot contain colon");
    }
  }
  if (rest.substr(0, 2) == "//" && (!url.scheme.empty() || rest.substr(0, 3) != "///")) {
    rest.remove_prefix(2);
    const auto slash = rest.find('/');
    KF_TRY(host, parseAuthority(rest.substr(0, slash)));
    url.host = std::move(host);
    rest = slash == npos ? std::string_view() : rest.substr(slash);
  }
  KF_TRY(path, unescape(rest, Part::kPath));
  url.path = std::move(path);
  return url;
}

}  // namespace

std::string GoUrl::port() const {
  const auto colon = host.rfind(':');
  if (colon == npos || !isOptionalPort(host.substr(colon))) return "";
  return host.substr(colon + 1);
}

Result<GoUrl> parseGoUrl(std::string_view text) {
  const auto hash = text.find('#');
  const std::string_view before_fragment = text.substr(0, hash);
  auto url = parseBeforeFragment(before_fragment);
  if (!url) return goError("parse " + meta::goQuote(before_fragment) + ": " + url.error().message);
  if (hash != npos) {
    if (auto fragment = unescape(text.substr(hash + 1), Part::kFragment); !fragment) {
      return goError("parse " + meta::goQuote(text) + ": " + fragment.error().message);
    }
  }
  return url;
}

}  // namespace kf::core
