#include <algorithm>
#include <cctype>
#include <charconv>

#include "apis/core/validation.h"
#include "apis/meta/join.h"
#include "apis/meta/name_validation.h"

namespace kf::core {

using meta::BadValue;
using meta::ErrorList;
using meta::FieldPath;

namespace {

constexpr std::string_view kHostError = "host must be a URL or a host:port pair";

bool isSchemeChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
}

// Go url.Parse's scheme: a letter, then letters, digits, '+', '-' or '.', before ':'. "" when
// the text has none. Schemes compare case-insensitively, so it comes back lower-cased.
std::string urlScheme(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0) return "";
  if (std::isalpha(static_cast<unsigned char>(text[0])) == 0) return "";
  std::string scheme;
  for (char c : text.substr(0, colon)) {
    if (!isSchemeChar(c)) return "";
    scheme += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return scheme;
}

struct EndpointParts {
  std::string scheme;
  std::string authority;  // host[:port]
  std::string path;
  bool explicit_scheme = false;
};

// client-go's DefaultServerURL reading: "scheme://authority/path", or a bare "host:port" that
// gets https.
EndpointParts splitEndpoint(std::string_view endpoint) {
  EndpointParts parts;
  std::string_view rest = endpoint;
  const auto separator = endpoint.find("://");
  if (separator != std::string_view::npos && !urlScheme(endpoint).empty() &&
      urlScheme(endpoint).size() == separator) {
    parts.scheme = urlScheme(endpoint);
    parts.explicit_scheme = true;
    rest = endpoint.substr(separator + 3);
  } else {
    parts.scheme = "https";
  }
  const auto slash = rest.find_first_of("/?#");
  parts.authority = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) parts.path = std::string(rest.substr(slash));
  return parts;
}

// client-go's DefaultServerURL error for an endpoint that is no URL and no host:port pair.
std::string hostError(std::string_view endpoint) {
  return std::string(kHostError) + ": " + meta::goQuote(endpoint);
}

// The host may be an IP address or a DNS name; when it is neither, KubeFed says both.
ErrorList validateEndpointHost(const std::string& host, const FieldPath& path) {
  const auto dns_errors = meta::dns1123SubdomainErrors(host);
  if (dns_errors.empty() || meta::isValidIp(host)) return {};
  return {meta::invalid(path, BadValue::quoted(host),
                        "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff); or " +
                            joinWith(dns_errors, ","))};
}

// A port that is not all digits fails Go's url.Parse before KubeFed sees it: without a scheme
// the parse error itself is reported; with one, client-go retries with https:// in front, which
// then fails as a host with a path.
ErrorList validateEndpointPort(std::string_view endpoint, const EndpointParts& parts,
                               const std::string& port, const FieldPath& path) {
  if (port.empty()) return {};  // "host:" means the default port, as in Go's net/url
  if (!std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const std::string message =
        parts.explicit_scheme ? hostError(endpoint)
                              : "parse " + meta::goQuote("https://" + std::string(endpoint)) +
                                    ": invalid port " + meta::goQuote(":" + port) + " after host";
    return {meta::invalid(path, BadValue::quoted(endpoint), message)};
  }
  long long number = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (ec != std::errc() || end != port.data() + port.size()) {
    return {meta::invalid(path, BadValue::quoted(port), "error converting port to integer")};
  }
  if (number < 1 || number > 65535) {
    return {
        meta::invalid(path, BadValue::number(number), "must be between 1 and 65535, inclusive")};
  }
  return {};
}

// Go's %#v of a []TLSValidation, the value KubeFed prints for a bad list.
std::string goSliceRepr(const std::vector<std::string>& values) {
  std::string out = "[]v1beta1.TLSValidation{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += meta::goQuote(values[i]);
  }
  return out + "}";
}

}  // namespace

ErrorList validateKubeFedCluster(const KubeFedCluster& cluster, bool status_subresource) {
  if (status_subresource) {
    return validateKubeFedClusterStatus(cluster.status.value_or(KubeFedClusterStatus{}),
                                        FieldPath("status"));
  }
  return validateKubeFedClusterSpec(cluster.spec, FieldPath("spec"));
}

ErrorList validateKubeFedClusterSpec(const KubeFedClusterSpec& spec, const FieldPath& path) {
  ErrorList errors = validateApiEndpoint(spec.api_endpoint, path.child("apiEndpoint"));
  meta::append(errors, validateLocalSecretReference(spec.secret_ref, path.child("secretRef")));
  meta::append(errors, validateDisabledTlsValidations(spec.disabled_tls_validations,
                                                      path.child("disabledTLSValidations")));
  meta::append(errors, validateProxyUrl(spec.proxy_url, path.child("proxyURL")));
  return errors;
}

ErrorList validateKubeFedClusterStatus(const KubeFedClusterStatus& status, const FieldPath& path) {
  ErrorList errors;
  const FieldPath conditions = path.child("conditions");
  for (std::size_t i = 0; i < status.conditions.size(); ++i) {
    meta::append(errors, validateClusterCondition(status.conditions[i], conditions.index(i)));
  }
  return errors;
}

ErrorList validateApiEndpoint(std::string_view endpoint, const FieldPath& path) {
  if (endpoint.empty()) return {meta::required(path)};
  const EndpointParts parts = splitEndpoint(endpoint);
  const bool bad_path = !parts.explicit_scheme && !parts.path.empty() && parts.path != "/";
  if (parts.authority.empty() || bad_path) {
    return {meta::invalid(path, BadValue::quoted(endpoint), hostError(endpoint))};
  }
  ErrorList errors;
  if (parts.scheme != "http" && parts.scheme != "https") {
    errors.push_back(meta::notSupported(path, parts.scheme, {"http", "https"}));
  }
  std::string host = parts.authority;
  std::string port;
  if (host.front() == '[') {  // [IPv6]:port; Hostname() drops the brackets
    const auto close = host.find(']');
    const std::string after = close == std::string::npos ? "x" : host.substr(close + 1);
    if (!after.empty() && after.front() != ':') {
      errors.push_back(meta::invalid(path, BadValue::quoted(endpoint), hostError(endpoint)));
      return errors;
    }
    if (!after.empty()) port = after.substr(1);
    host = host.substr(1, close - 1);
  } else if (const auto colon = host.rfind(':'); colon != std::string::npos) {
    port = host.substr(colon + 1);
    host.resize(colon);
  }
  meta::append(errors, validateEndpointHost(host, path));
  meta::append(errors, validateEndpointPort(endpoint, parts, port, path));
  return errors;
}

ErrorList validateLocalSecretReference(const LocalSecretReference& ref, const FieldPath& path) {
  const FieldPath name = path.child("name");
  if (ref.name.empty()) return {meta::required(name)};
  return meta::validateDns1123Subdomain(ref.name, name);
}

ErrorList validateDisabledTlsValidations(const std::vector<std::string>& validations,
                                         const FieldPath& path) {
  static const std::vector<std::string> kAccepted{
      std::string(kTlsAll), std::string(kTlsSubjectName), std::string(kTlsValidityPeriod)};
  ErrorList errors;
  // KubeFed names the list, not the element, for an unknown value.
  for (const auto& validation : validations) {
    meta::append(errors, meta::validateEnumString(validation, path, kAccepted));
  }
  const bool has_all =
      std::find(validations.begin(), validations.end(), kTlsAll) != validations.end();
  if (has_all && validations.size() > 1) {
    errors.push_back(meta::invalid(path, BadValue::bare(goSliceRepr(validations)),
                                   "when * is specified, it is expected to be the only option in "
                                   "list"));
  }
  return errors;
}

ErrorList validateProxyUrl(std::string_view proxy_url, const FieldPath& path) {
  if (proxy_url.empty()) return {};
  const std::string scheme = urlScheme(proxy_url);
  if (scheme == "http" || scheme == "https" || scheme == "socks5") return {};
  return {meta::invalid(path, BadValue::quoted(proxy_url),
                        "proxy URL scheme must be one of: [http, https, socks5]")};
}

ErrorList validateClusterCondition(const ClusterCondition& condition, const FieldPath& path) {
  static const std::vector<std::string> kTypes{std::string(kClusterReady),
                                               std::string(kClusterOffline)};
  static const std::vector<std::string> kStatuses{"True", "False", "Unknown"};
  ErrorList errors = meta::validateEnumString(condition.type, path.child("type"), kTypes);
  meta::append(errors, meta::validateEnumString(condition.status, path.child("status"), kStatuses));
  if (condition.last_probe_time.empty()) {
    errors.push_back(meta::required(path.child("lastProbeTime")));
  }
  return errors;
}

}  // namespace kf::core
