#pragma once
// The names `kubefedctl join` gives what it creates, and `unjoin` looks for (spec §3.1). They are
// KubeFed's, so clusters joined by either implementation can be unjoined by the other; only the
// token Secret is new (KubeFed 0.8.1 relied on auto-generated token Secrets, which Kubernetes no
// longer creates since 1.24).

#include <string>

namespace kf::kubefedctl {

// The ServiceAccount in the joining cluster whose token the control plane uses:
// "<cluster name>-<host cluster name>".
std::string serviceAccountName(const std::string& cluster_name,
                               const std::string& host_cluster_name);

// The kubernetes.io/service-account-token Secret join creates for that ServiceAccount:
// "<service account>-token".
std::string tokenSecretName(const std::string& service_account);

// ClusterRole/ClusterRoleBinding (Cluster scope) or Role/RoleBinding (Namespaced scope):
// "kubefed-controller-manager:<service account>".
std::string roleName(const std::string& service_account);

// The health-check ClusterRole/ClusterRoleBinding of a Namespaced join:
// "kubefed-controller-manager:<kubefed namespace>:healthcheck-<service account>".
std::string healthCheckRoleName(const std::string& service_account,
                                const std::string& kubefed_namespace);

// Annotation on the host Secrets join writes, naming the joined cluster. A join that is re-run
// after failing before its KubeFedCluster was written finds its Secret again through it (rather
// than leaving one more generated Secret behind), and unjoin removes such leftovers.
inline constexpr const char* kJoinedClusterAnnotation = "kubefedctl.kubefed.io/joined-cluster";

}  // namespace kf::kubefedctl
