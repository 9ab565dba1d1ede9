#include <algorithm>
#include <charconv>

#include "apis/core/go_url.h"
#include "apis/core/validation.h"
#include "apis/meta/name_validation.h"

namespace kf::core {

using meta::BadValue;
using meta::ErrorList;
using meta::FieldPath;

namespace {

// client-go's DefaultServerURL error for an endpoint that is no URL and no host:port pair.
std::string hostError(std::string_view endpoint) {
  return "host must be a URL or a host:port pair: " + meta::goQuote(endpoint);
}

// client-go's DefaultServerURL, TLS by default: a text that is no URL with a scheme and a host
// is read again with https:// in front, and then must not have a path. Nothing checks the host
// name itself: any host Go's URL parser takes (upper case, '_', a trailing dot) is accepted.
Result<GoUrl> defaultServerUrl(std::string_view endpoint) {
  auto url = parseGoUrl(endpoint);
  if (url && !url.value().scheme.empty() && !url.value().host.empty()) return url;
  KF_TRY(with_https, parseGoUrl("https://" + std::string(endpoint)));
  if (!with_https.path.empty() && with_https.path != "/") {
    return makeError(Reason::kInvalid, hostError(endpoint));
  }
  return with_https;
}

ErrorList validateEndpointPort(const std::string& port, const FieldPath& path) {
  if (port.empty()) return {};  // "host:" means the default port, as in Go's net/url
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
  auto url = defaultServerUrl(endpoint);
  if (!url) return {meta::invalid(path, BadValue::quoted(endpoint), url.error().message)};
  ErrorList errors = meta::validateEnumString(url.value().scheme, path, {"http", "https"});
  meta::append(errors, validateEndpointPort(url.value().port(), path));
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
  // KubeFed's handler fails on a URL Go cannot parse, and the API server then denies the
  // request (failurePolicy Fail) with no reason given; we deny it with Go's parse error.
  auto url = parseGoUrl(proxy_url);
  if (!url) return {meta::invalid(path, BadValue::quoted(proxy_url), url.error().message)};
  const std::string& scheme = url.value().scheme;
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
