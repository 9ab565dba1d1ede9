#pragma once
// The objects `kubefedctl join` writes, built without talking to a server (spec §3.1): in the
// joining cluster the KubeFed namespace, a ServiceAccount, its token Secret and RBAC; in the host
// a Secret with the token and the KubeFedCluster.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "federation/client/kubeconfig.h"
#include "federation/client/list_options.h"

namespace kf::kubefedctl {

// A resource and the name output gives it ("clusterrole.rbac.authorization.k8s.io").
struct ObjectKind {
  GroupVersionResource resource;
  std::string display;
};

inline const ObjectKind kNamespaceKind{{"", "v1", "namespaces", false}, "namespace"};
inline const ObjectKind kServiceAccountKind{{"", "v1", "serviceaccounts", true}, "serviceaccount"};
inline const ObjectKind kSecretKind{{"", "v1", "secrets", true}, "secret"};
inline const ObjectKind kClusterRoleKind{{"rbac.authorization.k8s.io", "v1", "clusterroles", false},
                                         "clusterrole.rbac.authorization.k8s.io"};
inline const ObjectKind kClusterRoleBindingKind{
    {"rbac.authorization.k8s.io", "v1", "clusterrolebindings", false},
    "clusterrolebinding.rbac.authorization.k8s.io"};
inline const ObjectKind kRoleKind{{"rbac.authorization.k8s.io", "v1", "roles", true},
                                  "role.rbac.authorization.k8s.io"};
inline const ObjectKind kRoleBindingKind{{"rbac.authorization.k8s.io", "v1", "rolebindings", true},
                                         "rolebinding.rbac.authorization.k8s.io"};
inline const ObjectKind kKubeFedClusterKind{{"core.kubefed.io", "v1beta1", "kubefedclusters", true},
                                            "kubefedcluster.core.kubefed.io"};
inline const GroupVersionResource kKubeFedConfigs{"core.kubefed.io", "v1beta1", "kubefedconfigs",
                                                  true};

inline constexpr const char* kKubeFedConfigName = "kubefed";
inline constexpr const char* kServiceAccountTokenType = "kubernetes.io/service-account-token";
inline constexpr const char* kServiceAccountNameAnnotation = "kubernetes.io/service-account.name";
inline constexpr const char* kServiceAccountUidAnnotation = "kubernetes.io/service-account.uid";

// The KubeFedConfig's spec.scope: what the control plane may touch in a member.
enum class JoinScope { kCluster, kNamespaced };

// "serviceaccount/x created in cluster \"member1\"": one line per object written or removed.
void printAction(std::ostream& out, const ObjectKind& kind, const std::string& name,
                 const std::string& action, const std::string& place);

// "\"ns/name\"", or "\"name\"" for a cluster-scoped object: how messages name objects.
std::string quotedKey(const std::string& ns, const std::string& name);

// The value of one annotation; "" when the object does not have it.
std::string annotationOf(const Json& object, const std::string& key);

Json namespaceObject(const std::string& name);
Json serviceAccountObject(const std::string& name, const std::string& ns);
// A Secret the token controller fills with the ServiceAccount's token and the cluster's CA.
Json tokenSecretObject(const std::string& service_account, const std::string& ns);

struct RbacObject {
  ObjectKind kind;
  Json object;
  // How KubeFed's messages name it: "cluster role", "role binding", "health check cluster role".
  std::string description;
};

// The roles and bindings join grants the ServiceAccount, each role before its binding.
// Cluster: ClusterRole + ClusterRoleBinding with every verb on every resource and GET on every
// non-resource URL. Namespaced: Role + RoleBinding with every verb on every resource of the
// KubeFed namespace, plus a health-check ClusterRole + ClusterRoleBinding (/healthz, list nodes).
std::vector<RbacObject> rbacObjects(JoinScope scope, const std::string& service_account,
                                    const std::string& ns);

// What the KubeFedCluster needs from the joining cluster's kubeconfig entry.
struct JoiningEndpoint {
  std::string server;  // verbatim, as the kubeconfig has it
  std::string ca_pem;  // certificate-authority-data or the certificate-authority file; may be ""
  bool insecure_skip_tls_verify = false;
  std::string proxy_url;
};

// The endpoint of `context` ("" = the current context); fails on an unusable entry.
Result<JoiningEndpoint> joiningEndpoint(const Kubeconfig& kubeconfig, const std::string& context);

// A filled service-account token Secret's data, still base64 as Secrets hold it.
struct ServiceAccountToken {
  std::string token_base64;
  std::string ca_crt_base64;  // "" when the Secret has no ca.crt
};

// nullopt until the token controller has written a non-empty `token`.
std::optional<ServiceAccountToken> tokenFrom(const Json& secret);

// The host Secret holding the token. An empty name asks the server to generate one from
// "<cluster>-".
Json hostSecretObject(const std::string& cluster_name, const std::string& ns,
                      const std::string& secret_name, const std::string& token_base64);

// The KubeFedCluster. caBundle comes from the kubeconfig, else from the token Secret's ca.crt;
// disabledTLSValidations is ["*"] when the kubeconfig skips TLS verification.
Json kubefedClusterObject(const JoiningEndpoint& endpoint, const std::string& cluster_name,
                          const std::string& ns, const std::string& secret_name,
                          const std::string& token_ca_crt_base64);

}  // namespace kf::kubefedctl
