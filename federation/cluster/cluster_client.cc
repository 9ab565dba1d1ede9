#include "federation/cluster/cluster_client.h"

#include <spdlog/spdlog.h>

#include "federation/client/base64.h"
#include "federation/client/resource_client.h"
#include "federation/client/server_url.h"

namespace kf {
namespace {

constexpr const char* kTokenKey = "token";
constexpr std::string_view kPemCertificate = "-----BEGIN CERTIFICATE-----";

std::string describeCluster(const core::KubeFedCluster& cluster) {
  return "KubeFedCluster \"" + cluster.header.namespaceName() + "/" + cluster.name() + "\"";
}

ApiError configError(const core::KubeFedCluster& cluster, const std::string& what) {
  return makeError(Reason::kBadConfig, describeCluster(cluster) + ": " + what);
}

std::string describeSecret(const core::KubeFedCluster& cluster) {
  return "Secret \"" + cluster.header.namespaceName() + "/" + cluster.spec.secret_ref.name +
         "\" (spec.secretRef.name)";
}

bool isKnownTlsValidation(const std::string& value) {
  return value == core::kTlsAll || value == core::kTlsSubjectName ||
         value == core::kTlsValidityPeriod;
}

// scheme://host:port[/prefix], the form RestConfig::server takes; a bare host gets https.
Result<std::string> serverFromEndpoint(const core::KubeFedCluster& cluster) {
  const std::string& endpoint = cluster.spec.api_endpoint;
  if (endpoint.empty()) {
    return configError(cluster,
                       "spec.apiEndpoint is empty: set it to the member API server's URL "
                       "(https://host:port) or host:port");
  }
  auto parsed = parseServerUrl(endpoint);
  if (!parsed) {
    return configError(cluster, "spec.apiEndpoint: " + parsed.error().message +
                                    ": set it to a URL (https://host:port) or host:port");
  }
  return parsed.value().scheme + "://" + parsed.value().authority() + parsed.value().path_prefix;
}

Result<std::string> tokenFromSecret(const core::KubeFedCluster& cluster,
                                    const std::optional<Json>& secret) {
  if (!secret) {
    return configError(cluster, describeSecret(cluster) +
                                    " not found: create it in the KubeFed namespace with the "
                                    "member's bearer token under key \"token\"");
  }
  const Json* data = secret->contains("data") ? &(*secret)["data"] : nullptr;
  if (data == nullptr || !data->is_object() || !data->contains(kTokenKey)) {
    return configError(cluster, describeSecret(cluster) +
                                    " has no key \"token\": put the member's bearer token there");
  }
  const Json& encoded = (*data)[kTokenKey];
  auto token = encoded.is_string() ? base64Decode(encoded.get<std::string>()) : std::nullopt;
  if (!token) {
    return configError(cluster, describeSecret(cluster) +
                                    ": data.token is not valid base64: store the token as "
                                    "Secret data (base64) or stringData (plain)");
  }
  if (token->empty()) {
    return configError(
        cluster,
        describeSecret(cluster) + ": key \"token\" is empty: put the member's bearer token there");
  }
  return std::move(*token);
}

// spec.caBundle is base64 of PEM text (a []byte in KubeFed's Go types).
Result<std::string> caFromBundle(const core::KubeFedCluster& cluster) {
  if (cluster.spec.ca_bundle.empty()) return std::string();  // the system trust store
  auto pem = base64Decode(cluster.spec.ca_bundle);
  if (!pem) {
    return configError(cluster,
                       "spec.caBundle is not valid base64: set it to the base64 encoding of the "
                       "PEM CA certificate(s) that signed the member API server's certificate");
  }
  if (pem->find(kPemCertificate) == std::string::npos) {
    return configError(cluster,
                       "spec.caBundle does not hold a PEM certificate (no \"-----BEGIN "
                       "CERTIFICATE-----\" after base64 decoding): set it to the base64 encoding "
                       "of the PEM CA certificate(s)");
  }
  return std::move(*pem);
}

void warnAboutUnknownTlsValidations(const core::KubeFedCluster& cluster) {
  for (const auto& value : cluster.spec.disabled_tls_validations) {
    if (!isKnownTlsValidation(value)) {
      spdlog::warn("Ignoring unknown disabledTLSValidations value cluster={} value={}",
                   cluster.name(), value);
    }
  }
}

}  // namespace

void applyDisabledTlsValidations(const std::vector<std::string>& disabled, TlsConfig& tls) {
  for (const auto& value : disabled) {
    if (value == core::kTlsAll) {
      tls.insecure_skip_verify = true;
    } else if (value == core::kTlsSubjectName) {
      tls.verify_hostname = false;
    } else if (value == core::kTlsValidityPeriod) {
      tls.ignore_validity_period = true;
    }
  }
}

Result<RestConfig> buildClusterConfig(const core::KubeFedCluster& cluster,
                                      const std::optional<Json>& secret,
                                      std::chrono::milliseconds timeout) {
  RestConfig config;
  KF_TRY(server, serverFromEndpoint(cluster));
  config.server = std::move(server);
  if (cluster.spec.secret_ref.name.empty()) {
    return configError(cluster,
                       "spec.secretRef.name is empty: name the Secret in the KubeFed namespace "
                       "that holds the member's bearer token under key \"token\"");
  }
  KF_TRY(token, tokenFromSecret(cluster, secret));
  config.bearer_token = std::move(token);
  KF_TRY(ca, caFromBundle(cluster));
  config.tls.ca_pem = std::move(ca);
  warnAboutUnknownTlsValidations(cluster);
  applyDisabledTlsValidations(cluster.spec.disabled_tls_validations, config.tls);
  config.proxy_url = cluster.spec.proxy_url;
  config.qps = kMemberQps;
  config.burst = kMemberBurst;
  config.connect_timeout = timeout;
  config.request_timeout = timeout;
  return config;
}

Result<RestConfig> loadClusterConfig(RestClient& host, const std::string& kubefed_namespace,
                                     const core::KubeFedCluster& cluster,
                                     std::chrono::milliseconds timeout) {
  if (cluster.spec.api_endpoint.empty() || cluster.spec.secret_ref.name.empty()) {
    return buildClusterConfig(cluster, std::nullopt, timeout);  // fails before any read
  }
  ResourceClient secrets(host, {"", "v1", "secrets", true}, kubefed_namespace);
  auto secret = secrets.get(cluster.spec.secret_ref.name);
  if (!secret) {
    if (!isNotFound(secret.error())) {
      ApiError error = secret.error();
      error.message =
          describeCluster(cluster) + ": reading " + describeSecret(cluster) + ": " + error.message;
      return error;
    }
    return buildClusterConfig(cluster, std::nullopt, timeout);
  }
  return buildClusterConfig(cluster, std::optional<Json>(std::move(secret).value()), timeout);
}

Result<MemberClients> makeMemberClients(const RestConfig& config, Clock& clock) {
  KF_TRY(probe_transport, makeTransport(config));
  MemberClients clients;
  clients.probe = std::make_shared<RestClient>(config, std::move(probe_transport), clock,
                                               RetryPolicy{.max_attempts = 1});
  RestConfig shared = config;
  shared.connect_timeout = RestConfig{}.connect_timeout;
  shared.request_timeout = RestConfig{}.request_timeout;
  KF_TRY(client, RestClient::create(shared, clock));
  clients.client = std::shared_ptr<RestClient>(std::move(client));
  return clients;
}

}  // namespace kf
