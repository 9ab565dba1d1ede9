#include "cmd/kubefedctl/join_objects.h"

#include "apis/core/kubefed_cluster.h"
#include "cmd/kubefedctl/join_names.h"
#include "federation/client/base64.h"

namespace kf::kubefedctl {
namespace {

constexpr const char* kRbacGroup = "rbac.authorization.k8s.io";

Json metadata(const std::string& name, const std::string& ns) {
  Json out = {{"name", name}};
  if (!ns.empty()) out["namespace"] = ns;
  return out;
}

Json role(const char* kind, const std::string& name, const std::string& ns, Json rules) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", kind},
          {"metadata", metadata(name, ns)},
          {"rules", std::move(rules)}};
}

Json binding(const char* kind, const char* role_kind, const std::string& name,
             const std::string& ns, const std::string& service_account,
             const std::string& service_account_ns) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", kind},
          {"metadata", metadata(name, ns)},
          {"subjects",
           {{{"kind", "ServiceAccount"},
             {"name", service_account},
             {"namespace", service_account_ns}}}},
          {"roleRef", {{"apiGroup", kRbacGroup}, {"kind", role_kind}, {"name", name}}}};
}

Json allResourcesRule() { return {{"verbs", {"*"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}}; }

// KubeFed's health-check role. The capitalised "Get" never matches a request (verbs are lower
// case); the health check works only because /healthz is public. Kept for compatibility (spec §8).
Json healthCheckRules() {
  return Json::array({{{"verbs", {"Get"}}, {"nonResourceURLs", {"/healthz"}}},
                      {{"verbs", {"list"}}, {"apiGroups", {""}}, {"resources", {"nodes"}}}});
}

std::vector<RbacObject> clusterScopedRbac(const std::string& service_account,
                                          const std::string& ns) {
  const std::string name = roleName(service_account);
  Json rules = Json::array({allResourcesRule(), {{"nonResourceURLs", {"*"}}, {"verbs", {"get"}}}});
  return {{kClusterRoleKind, role("ClusterRole", name, "", std::move(rules)), "cluster role"},
          {kClusterRoleBindingKind,
           binding("ClusterRoleBinding", "ClusterRole", name, "", service_account, ns),
           "cluster role binding"}};
}

std::vector<RbacObject> namespaceScopedRbac(const std::string& service_account,
                                            const std::string& ns) {
  const std::string name = roleName(service_account);
  const std::string health = healthCheckRoleName(service_account, ns);
  return {{kRoleKind, role("Role", name, ns, Json::array({allResourcesRule()})), "role"},
          {kRoleBindingKind, binding("RoleBinding", "Role", name, ns, service_account, ns),
           "role binding"},
          {kClusterRoleKind, role("ClusterRole", health, "", healthCheckRules()),
           "health check cluster role"},
          {kClusterRoleBindingKind,
           binding("ClusterRoleBinding", "ClusterRole", health, "", service_account, ns),
           "health check cluster role binding"}};
}

std::string dataField(const Json& secret, const char* key) {
  const Json data = secret.value("data", Json::object());
  auto it = data.find(key);
  return it != data.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

void printAction(std::ostream& out, const ObjectKind& kind, const std::string& name,
                 const std::string& action, const std::string& place) {
  out << kind.display << "/" << name << " " << action << " " << place << "\n";
}

std::string quotedKey(const std::string& ns, const std::string& name) {
  return "\"" + (ns.empty() ? name : ns + "/" + name) + "\"";
}

std::string annotationOf(const Json& object, const std::string& key) {
  const Json annotations =
      object.value("metadata", Json::object()).value("annotations", Json::object());
  auto it = annotations.find(key);
  return it != annotations.end() && it->is_string() ? it->get<std::string>() : "";
}

Json namespaceObject(const std::string& name) {
  return {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", metadata(name, "")}};
}

Json serviceAccountObject(const std::string& name, const std::string& ns) {
  return {{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", metadata(name, ns)}};
}

Json tokenSecretObject(const std::string& service_account, const std::string& ns) {
  Json meta = metadata(tokenSecretName(service_account), ns);
  meta["annotations"] = {{kServiceAccountNameAnnotation, service_account}};
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata", std::move(meta)},
          {"type", kServiceAccountTokenType}};
}

std::vector<RbacObject> rbacObjects(JoinScope scope, const std::string& service_account,
                                    const std::string& ns) {
  return scope == JoinScope::kCluster ? clusterScopedRbac(service_account, ns)
                                      : namespaceScopedRbac(service_account, ns);
}

Result<JoiningEndpoint> joiningEndpoint(const Kubeconfig& kubeconfig, const std::string& context) {
  // Resolving the whole context first reports a missing context, cluster or CA file clearly.
  KF_TRY(config, restConfigFor(kubeconfig, context));
  const std::string name = context.empty() ? kubeconfig.current_context : context;
  const KubeconfigCluster& cluster = kubeconfig.clusters.at(kubeconfig.contexts.at(name).cluster);
  return JoiningEndpoint{cluster.server, config.tls.ca_pem, config.tls.insecure_skip_verify,
                         config.proxy_url};
}

std::optional<ServiceAccountToken> tokenFrom(const Json& secret) {
  ServiceAccountToken out{dataField(secret, "token"), dataField(secret, "ca.crt")};
  if (out.token_base64.empty()) return std::nullopt;
  return out;
}

Json hostSecretObject(const std::string& cluster_name, const std::string& ns,
                      const std::string& secret_name, const std::string& token_base64) {
  Json meta = {{"namespace", ns}, {"annotations", {{kJoinedClusterAnnotation, cluster_name}}}};
  if (secret_name.empty()) {
    meta["generateName"] = cluster_name + "-";
  } else {
    meta["name"] = secret_name;
  }
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata", std::move(meta)},
          {"data", {{"token", token_base64}}}};
}

Json kubefedClusterObject(const JoiningEndpoint& endpoint, const std::string& cluster_name,
                          const std::string& ns, const std::string& secret_name,
                          const std::string& token_ca_crt_base64) {
  core::KubeFedClusterSpec spec;
  spec.api_endpoint = endpoint.server;
  spec.ca_bundle = endpoint.ca_pem.empty() ? token_ca_crt_base64 : base64Encode(endpoint.ca_pem);
  spec.secret_ref.name = secret_name;
  if (endpoint.insecure_skip_tls_verify) spec.disabled_tls_validations = {"*"};
  spec.proxy_url = endpoint.proxy_url;
  return {{"apiVersion", "core.kubefed.io/v1beta1"},
          {"kind", "KubeFedCluster"},
          {"metadata", metadata(cluster_name, ns)},
          {"spec", spec.toJson()}};
}

}  // namespace kf::kubefedctl
