#pragma once
// Clients for a member cluster, built from its KubeFedCluster and the Secret holding its bearer
// token (spec §1.2): the server from spec.apiEndpoint, the CA from spec.caBundle, the proxy from
// spec.proxyURL, and TLS verification relaxed only as spec.disabledTLSValidations says.
//
// Errors name the KubeFedCluster and say what to fix. No error message and no log line carries
// the token.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apis/core/kubefed_cluster.h"
#include "apis/meta/api_error.h"
#include "federation/client/list_options.h"
#include "federation/client/rest_client.h"
#include "federation/client/rest_config.h"
#include "federation/runtime/clock.h"

namespace kf {

// KubeFed's client-side limits for member clusters.
inline constexpr double kMemberQps = 20;
inline constexpr int kMemberBurst = 30;

// Turns spec.disabledTLSValidations into TLS settings: "*" skips all verification,
// "SubjectName" keeps the chain check but not the name check, "ValidityPeriod" keeps both but
// ignores notBefore/notAfter. Unknown values are ignored (the admission webhook rejects them), so
// they leave verification on.
void applyDisabledTlsValidations(const std::vector<std::string>& disabled, TlsConfig& tls);

// The member's RestConfig. `secret` is the Secret named by spec.secretRef.name as read from the
// KubeFed namespace (nullopt: it does not exist). `timeout` bounds connecting and each request.
// Fails with kBadConfig when the endpoint, the secret reference, the token or the CA bundle
// cannot be used.
Result<RestConfig> buildClusterConfig(const core::KubeFedCluster& cluster,
                                      const std::optional<Json>& secret,
                                      std::chrono::milliseconds timeout);

// buildClusterConfig() with the Secret read from `host` in `kubefed_namespace`. A Secret that
// cannot be read (other than not found) fails with the host's error, prefixed with what was read.
Result<RestConfig> loadClusterConfig(RestClient& host, const std::string& kubefed_namespace,
                                     const core::KubeFedCluster& cluster,
                                     std::chrono::milliseconds timeout);

// The two clients the control plane keeps per member cluster.
struct MemberClients {
  // For health probes: one attempt per request (no retries), so a probe ends within the
  // config's timeouts.
  std::shared_ptr<RestClient> probe;
  // For everything else (informers, propagation): retries and the default request timeout.
  std::shared_ptr<RestClient> client;
};

// Builds both clients over the network transport from the config buildClusterConfig() returned.
// Fails with kBadConfig when the transport cannot use the config (bad CA PEM, unsupported proxy).
Result<MemberClients> makeMemberClients(const RestConfig& config, Clock& clock);

}  // namespace kf
