#pragma once
// The client.authentication.k8s.io ExecCredential exchange with a credential plugin, as pure
// functions: what the plugin is told (KUBERNETES_EXEC_INFO), and what its standard output must
// say. Messages never quote the output: it holds the credential.

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "apis/meta/api_error.h"
#include "federation/client/client_certificate.h"
#include "federation/client/rest_config.h"

namespace kf {

inline constexpr const char* kExecApiV1 = "client.authentication.k8s.io/v1";
inline constexpr const char* kExecApiV1Beta1 = "client.authentication.k8s.io/v1beta1";
inline constexpr const char* kExecInfoEnv = "KUBERNETES_EXEC_INFO";

// What a plugin returned.
struct ExecCredential {
  std::string token;                                     // "" when it issued a certificate only
  std::shared_ptr<const ClientCertificate> certificate;  // null when it issued a token only
  std::optional<std::chrono::system_clock::time_point> expiry;  // none: valid until rejected
};

// spec.interactive for the plugin. kubefed-cpp runs plugins without a terminal (standard input is
// /dev/null), so Never and IfAvailable both mean false, and Always is an error.
Result<bool> execInteractive(const ExecConfig& config);

// The KUBERNETES_EXEC_INFO value: an ExecCredential of the configured version with spec.interactive
// and, with provideClusterInfo, spec.cluster.
std::string execInfo(const ExecConfig& config, bool interactive);

// Reads the plugin's standard output. Fails, in client-go's words, when it is not an
// ExecCredential of the configured version, has no status, has neither a token nor a
// certificate and key, has only one of the certificate and the key, or an unreadable
// expirationTimestamp or key pair.
Result<ExecCredential> parseExecCredential(const std::string& output, const ExecConfig& config);

// An RFC 3339 time as metav1.Time writes it ("2024-05-01T10:00:00Z", fractional seconds and
// offsets allowed); nullopt when it is not one.
std::optional<std::chrono::system_clock::time_point> parseExpirationTimestamp(
    std::string_view text);

}  // namespace kf
