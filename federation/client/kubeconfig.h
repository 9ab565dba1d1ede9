#pragma once
// Loading a RestConfig the way kubectl does: from kubeconfig files (--kubeconfig, the KUBECONFIG
// list, ~/.kube/config) or from the in-cluster service-account files. Every failure is a
// kBadConfig ApiError naming the file and the field, e.g.
//   kubeconfig "/x/config": users[name="u"].user.client-key-data: invalid base64
// Token contents never appear in messages.

#include <map>
#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "apis/meta/object.h"
#include "federation/client/rest_config.h"

namespace kf {

// Where to look for kubeconfig files. The caller reads the environment, so tests do not have to.
struct KubeconfigOptions {
  std::string kubeconfig_path;  // --kubeconfig: this file alone, wins over kubeconfig_env
  std::string context;          // --context: "" = the current-context
  std::string kubeconfig_env;   // the KUBECONFIG value: ':'-separated files, merged
  std::string home;             // $HOME, for the ~/.kube/config default
};

// File references are already absolute (resolved against the directory of the file that defined
// them) and "-data" fields already decoded; files are read only when a RestConfig is built.
struct KubeconfigCluster {
  std::string server;
  std::string certificate_authority;       // file path
  std::string certificate_authority_data;  // PEM
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;
  bool disable_compression = false;
  // extensions[name="client.authentication.k8s.io/exec"].extension, handed to exec plugins that
  // ask for cluster information; null when absent.
  Json exec_extension;
  std::string source;  // the file that defined this entry
};

// A user's auth-provider entry as written: its name and its config (strings by key).
struct KubeconfigAuthProvider {
  std::string name;
  std::map<std::string, std::string> config;
};

struct KubeconfigUser {
  std::string client_certificate;       // file path
  std::string client_certificate_data;  // PEM
  std::string client_key;               // file path
  std::string client_key_data;          // PEM
  std::string token;
  std::string token_file;
  std::string username;  // basic authentication
  std::string password;
  // The exec plugin as written (a relative command path already made absolute); its origin and
  // cluster information are filled in when a context uses this user.
  std::optional<ExecConfig> exec;
  // The auth-provider entry: oidc is used, the others (gcp, azure, ...) are refused. Problems
  // with it are reported when a context uses the user, not when the file is read, so that a file
  // can still be listed when an unused user has one.
  std::optional<KubeconfigAuthProvider> auth_provider;
  Impersonation impersonate;  // as, as-uid, as-groups, as-user-extra
  std::string source;
};

struct KubeconfigContext {
  std::string cluster;
  std::string user;  // "": anonymous
  std::string namespace_name;
  std::string source;
};

// One kubeconfig file, or several merged.
struct Kubeconfig {
  std::map<std::string, KubeconfigCluster> clusters;
  std::map<std::string, KubeconfigUser> users;
  std::map<std::string, KubeconfigContext> contexts;
  std::string current_context;
  std::vector<std::string> sources;  // the files read, in merge order

  // Sorted, as kubectl config get-contexts shows them.
  std::vector<std::string> contextNames() const;
  // The sources joined with ':' (as in KUBECONFIG), for messages about the merged whole.
  std::string origin() const;
};

// source_name is the file the text came from: it names the file in errors and anchors relative
// paths. An empty document is an empty config, as in kubectl.
Result<Kubeconfig> parseKubeconfig(const std::string& yaml_text, const std::string& source_name);
Result<Kubeconfig> loadKubeconfigFile(const std::string& path);

// kubectl's merge rule: the first file to define a cluster, user or context name, or to set
// current-context, wins. Entries are taken whole, never merged field by field.
Kubeconfig mergeKubeconfigs(const std::vector<Kubeconfig>& in_order);

// The kubeconfig the options select: --kubeconfig alone; else the KUBECONFIG files that exist,
// merged; else $HOME/.kube/config.
Result<Kubeconfig> loadKubeconfig(const KubeconfigOptions& options);

// Resolves one context ("" = current-context) into a self-contained RestConfig, reading the
// certificate, key and token files it references.
Result<RestConfig> restConfigFor(const Kubeconfig& config, const std::string& context);

// loadKubeconfig + restConfigFor(options.context).
Result<RestConfig> loadRestConfig(const KubeconfigOptions& options);

inline constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

struct InClusterEnv {
  std::string host;                                      // KUBERNETES_SERVICE_HOST
  std::string port;                                      // KUBERNETES_SERVICE_PORT
  std::string service_account_dir = kServiceAccountDir;  // token, ca.crt, namespace
};

// The API server of the cluster this process runs in, authenticated as its service account.
// token and ca.crt are required; a missing namespace file means "default".
Result<RestConfig> inClusterRestConfig(const InClusterEnv& env);

// What a controller or CLI wants by default: the kubeconfig when --kubeconfig, KUBECONFIG or
// --context is given; else in-cluster when the service env vars are set; else ~/.kube/config.
Result<RestConfig> resolveRestConfig(const KubeconfigOptions& options, const InClusterEnv& env);

}  // namespace kf
