#pragma once
// Everything needed to talk to one API server, as resolved from a kubeconfig context or from the
// in-cluster service-account files. PEM contents are held in memory, never file paths, so a
// config is self-contained once loaded.

#include <chrono>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

// A kubeconfig user's exec credential plugin (client.authentication.k8s.io ExecCredential): a
// command that prints a token or a client certificate, run again when they expire or the server
// answers 401.
struct ExecConfig {
  std::string command;  // a name looked up in PATH, or a path (made absolute by the kubeconfig)
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;  // added to this process's environment
  std::string api_version;  // client.authentication.k8s.io/v1 or .../v1beta1
  std::string install_hint;
  std::string interactive_mode;  // Never, IfAvailable or Always
  // ExecCredential spec.cluster when provideClusterInfo is set (null otherwise): the cluster's
  // server, CA, TLS and proxy settings and its client.authentication.k8s.io/exec extension.
  nlohmann::json cluster;
  std::string origin;  // "kubeconfig \"/x\": users[name=\"u\"].user.exec", for messages
};

// A kubeconfig user's oidc auth-provider (client-go's): an OpenID Connect id-token sent as a
// bearer token and, when it expires, replaced by one the issuer's token endpoint gives for the
// refresh-token. Tokens are never logged.
struct OidcConfig {
  std::string issuer_url;  // idp-issuer-url, https://
  std::string client_id;
  std::string client_secret;  // may be empty (a public client)
  std::string id_token;
  std::string refresh_token;
  std::string issuer_ca_pem;  // idp-certificate-authority(-data); empty: the system trust store
  // Refreshed tokens are written back into this user's entry of this kubeconfig file, as
  // client-go does; an empty file: kept in memory only.
  std::string kubeconfig_file;
  std::string user_name;
  std::string origin;  // "kubeconfig \"/x\": users[name=\"u\"].user.auth-provider", for messages
};

// Acting as another user (kubeconfig as, as-uid, as-groups, as-user-extra): Impersonate-*
// headers on every request, authorised by the server against the real credentials.
struct Impersonation {
  std::string user;  // empty: no impersonation
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;
};

struct RestConfig {
  // scheme://host[:port][/path-prefix], without a trailing slash.
  std::string server;
  TlsConfig tls;
  std::string bearer_token;       // never logged
  std::string bearer_token_file;  // re-read when set (projected tokens rotate)
  std::string username;           // HTTP basic authentication; never logged
  std::string password;
  std::optional<ExecConfig> exec;  // used only without a token, basic auth or client certificate
  std::optional<OidcConfig> oidc;  // used only without a token or basic auth
  Impersonation impersonate;
  std::string proxy_url;  // http(s) proxy for this cluster; empty: none
  std::string default_namespace = "default";
  std::string user_agent = "kubefed-cpp";
  // What connection errors call the server ("API server 10.0.0.1:6443: connecting failed: ...").
  std::string server_role = "API server";

  double qps = 5.0;  // client-side rate limit; <= 0 disables it
  int burst = 10;
  std::chrono::milliseconds connect_timeout{10'000};
  // Applies to whole non-watch requests; a watch uses its own timeoutSeconds plus a margin.
  std::chrono::milliseconds request_timeout{60'000};

  // Caps on what one server can make us hold, so that a broken or hostile server cannot grow
  // our memory without bound: a response body (a list, above all) larger than this, or a watch
  // event line longer than that, ends the request or the watch with kBadResponse naming the
  // server and the limit. Generous: an API server refuses request bodies over 3 MiB and etcd
  // stores values of at most 1.5 MiB by default, so one object is a few MiB as JSON at most,
  // and an unpaged list of a large cluster's objects stays well under a GiB.
  std::size_t max_response_body_bytes = std::size_t{1} << 30;
  std::size_t max_watch_event_bytes = std::size_t{64} << 20;
};

}  // namespace kf
