#pragma once
// Everything needed to talk to one API server, as resolved from a kubeconfig context or from the
// in-cluster service-account files. PEM contents are held in memory, never file paths, so a
// config is self-contained once loaded.

#include <chrono>
#include <optional>
#include <string>

namespace kf {

struct TlsConfig {
  bool insecure_skip_verify = false;
  std::string ca_pem;           // empty: the system trust store
  std::string client_cert_pem;  // with client_key_pem: TLS client-certificate authentication
  std::string client_key_pem;
  std::string server_name;  // SNI and verification name override (kubeconfig tls-server-name)
  // With verification on: false checks the chain but not that the certificate names the server
  // (KubeFedCluster disabledTLSValidations: SubjectName).
  bool verify_hostname = true;
  // With verification on: true accepts certificates outside their notBefore/notAfter window
  // (KubeFedCluster disabledTLSValidations: ValidityPeriod).
  bool ignore_validity_period = false;
};

struct RestConfig {
  // scheme://host[:port][/path-prefix], without a trailing slash.
  std::string server;
  TlsConfig tls;
  std::string bearer_token;       // never logged
  std::string bearer_token_file;  // re-read when set (projected tokens rotate)
  std::string proxy_url;          // http(s) proxy for this cluster; empty: none
  std::string default_namespace = "default";
  std::string user_agent = "kubefed-cpp";

  double qps = 5.0;  // client-side rate limit; <= 0 disables it
  int burst = 10;
  std::chrono::milliseconds connect_timeout{10'000};
  // Applies to whole non-watch requests; a watch uses its own timeoutSeconds plus a margin.
  std::chrono::milliseconds request_timeout{60'000};
};

}  // namespace kf
