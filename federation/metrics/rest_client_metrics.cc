#include "federation/metrics/rest_client_metrics.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>

namespace kf::metrics {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

void appendEscaped(std::string_view text, bool keep_reserved, std::string& out) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += c;
    } else if (keep_reserved && std::string_view("$&+,/:;=@").find(c) != std::string_view::npos) {
      out += c;  // Go's url package leaves these alone in a path (and escapes them in a query)
    } else {
      out += {'%', kHex[byte >> 4], kHex[byte & 0xF]};
    }
  }
}

// As Go's URL.EscapedPath() writes a path: "{" becomes "%7B".
void appendPath(std::string_view path, std::string& out) { appendEscaped(path, true, out); }

// As Go's url.QueryEscape, for parameter names (which never hold spaces).
void appendQueryComponent(std::string_view text, std::string& out) {
  appendEscaped(text, false, out);
}

// client-go keeps one {value} per parameter name, names sorted (url.Values.Encode).
void appendQueryTemplate(std::span<const QueryParameter> query, std::string& out) {
  constexpr std::size_t kMaxNames = 32;
  std::array<std::string_view, kMaxNames> names;
  std::size_t count = 0;
  for (const auto& parameter : query) {
    if (count < kMaxNames) names[count++] = parameter.first;
  }
  std::sort(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(count));
  const auto end = std::unique(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(count));
  for (auto it = names.begin(); it != end; ++it) {
    out += it == names.begin() ? '?' : '&';
    appendQueryComponent(*it, out);
    out += "=%7Bvalue%7D";
  }
}

bool isSubresourceKeepingName(std::string_view segment) {
  return segment == "finalize" || segment == "status";
}

struct Server {
  std::string_view scheme;     // as written; "https" when there is none
  std::string_view authority;  // host[:port]
  std::string_view prefix;     // "" or "/prefix", without a trailing slash
};

Server splitServer(std::string_view server) {
  Server out{"https", server, ""};
  if (const auto scheme_end = server.find("://"); scheme_end != std::string_view::npos) {
    out.scheme = server.substr(0, scheme_end);
    out.authority = server.substr(scheme_end + 3);
  }
  if (const auto slash = out.authority.find('/'); slash != std::string_view::npos) {
    out.prefix = out.authority.substr(slash);
    out.authority = out.authority.substr(0, slash);
  }
  while (!out.prefix.empty() && out.prefix.back() == '/') out.prefix.remove_suffix(1);
  return out;
}

// A path's segments, split at '/'; [0] is the empty one before the leading slash, as in Go's
// strings.Split.
struct Segments {
  static constexpr std::size_t kMax = 32;
  std::array<std::string_view, kMax> at;
  std::size_t count = 0;
};

Segments splitPath(std::string_view path) {
  Segments out;
  std::string_view rest = path.substr(path.starts_with('/') ? 1 : 0);
  out.at[out.count++] = "";
  for (;;) {
    const auto slash = rest.find('/');
    if (slash == std::string_view::npos || out.count == Segments::kMax - 1) {
      out.at[out.count++] = rest;  // the last one (past kMax: the rest, as it is)
      return out;
    }
    out.at[out.count++] = rest.substr(0, slash);
    rest.remove_prefix(slash + 1);
  }
}

// client-go's finalURLTemplate: the name and namespace segments of an /api or /apis path
// replaced; false for a path outside them.
bool replaceNamesAndNamespaces(Segments& s) {
  static constexpr std::string_view kName = "{name}";
  static constexpr std::string_view kNamespace = "{namespace}";
  std::size_t first;  // the segment after the group version: a resource, or "namespaces"
  if (s.at[1] == "api") {
    first = 3;
  } else if (s.at[1] == "apis") {
    first = 4;
  } else {
    return false;
  }
  const auto after = static_cast<std::ptrdiff_t>(s.count) - static_cast<std::ptrdiff_t>(first);
  if (after == 2) {  // RESOURCE/NAME
    s.at[first + 1] = kName;
  } else if (after == 3) {  // RESOURCE/NAME/status, or namespaces/NS/RESOURCE
    s.at[first + 1] = isSubresourceKeepingName(s.at[first + 2]) ? kName : kNamespace;
  } else if (after >= 4) {  // namespaces/NS/RESOURCE/NAME[/...]
    s.at[first + 1] = kNamespace;
    if (!isSubresourceKeepingName(s.at[first + 3])) s.at[first + 3] = kName;
  }
  return true;
}

// The prefix and the segments, joined as Go's path.Join joins them (empty segments dropped).
void appendJoined(std::string_view prefix, const Segments& s, std::string& out) {
  appendPath(prefix, out);
  bool wrote = false;
  for (std::size_t i = 1; i < s.count; ++i) {
    if (s.at[i].empty()) continue;
    out += '/';
    appendPath(s.at[i], out);
    wrote = true;
  }
  if (!wrote && prefix.empty()) out += '/';
}

}  // namespace

void appendUrlTemplate(std::string_view server, std::string_view path,
                       std::span<const QueryParameter> query, std::string& out) {
  const Server parts = splitServer(server);
  for (const char c : parts.scheme) {
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  out += "://";
  out += parts.authority;
  Segments segments = splitPath(path);
  if (segments.count <= 2) {  // "/version", "/api": nothing to replace
    appendPath(parts.prefix, out);
    if (!path.starts_with('/')) out += '/';
    appendPath(path, out);
  } else if (replaceNamesAndNamespaces(segments)) {
    appendJoined(parts.prefix, segments, out);
  } else {
    out += "/%7Bprefix%7D";  // client-go gives up on paths outside /api and /apis
    return;
  }
  appendQueryTemplate(query, out);
}

RestClientMetrics::RestClientMetrics(std::string server, Registry& registry)
    : server_(std::move(server)),
      host_(splitServer(server_).authority),
      requests_(registry.counter("rest_client_requests_total",
                                 "Number of HTTP requests, partitioned by status code, method, "
                                 "and host.",
                                 {"code", "method", "host"})),
      latency_(registry.histogram(
          "rest_client_request_latency_seconds",
          "Request latency in seconds. Broken down by verb and URL.", {"verb", "url"},
          {0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512})) {}

void RestClientMetrics::countAttempt(std::string_view method, int status) const {
  char digits[12];
  std::string_view code = "<error>";
  if (status > 0) {
    const auto end = std::to_chars(digits, digits + sizeof digits, status).ptr;
    code = std::string_view(digits, static_cast<std::size_t>(end - digits));
  }
  requests_.inc({code, method, host_});
}

void RestClientMetrics::observeRequest(std::string_view method, std::string_view path,
                                       std::span<const QueryParameter> query,
                                       Duration elapsed) const {
  // Reused by every request of this thread: no allocation once it has grown to a URL's size.
  thread_local std::string url;
  url.clear();
  appendUrlTemplate(server_, path, query, url);
  latency_.observe({method, url}, std::chrono::duration<double>(elapsed).count());
}

}  // namespace kf::metrics
