// What join writes, built without a server: names, RBAC for both scopes, secrets, the
// KubeFedCluster, and what unjoin removes.

#include "cmd/kubefedctl/join_objects.h"

#include <gtest/gtest.h>

#include "cmd/kubefedctl/join_names.h"
#include "cmd/kubefedctl/unjoin.h"

namespace kf::kubefedctl {
namespace {

constexpr const char* kPem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

// Verifies the generated names are KubeFed's, plus the token Secret's.
TEST(JoinNamesTest, NamesFollowKubeFed) {
  EXPECT_EQ(serviceAccountName("member1", "host"), "member1-host");
  EXPECT_EQ(tokenSecretName("member1-host"), "member1-host-token");
  EXPECT_EQ(roleName("member1-host"), "kubefed-controller-manager:member1-host");
  EXPECT_EQ(healthCheckRoleName("member1-host", "kube-federation-system"),
            "kubefed-controller-manager:kube-federation-system:healthcheck-member1-host");
}

// Verifies Cluster scope grants everything cluster-wide through a ClusterRole and its binding.
TEST(RbacObjectsTest, ClusterScopeGrantsEverythingClusterWide) {
  const auto objects = rbacObjects(JoinScope::kCluster, "m1-host", "kf");
  ASSERT_EQ(objects.size(), 2u);
  EXPECT_EQ(objects[0].kind.display, "clusterrole.rbac.authorization.k8s.io");
  EXPECT_EQ(objects[0].object, Json::parse(R"({
    "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
    "metadata": {"name": "kubefed-controller-manager:m1-host"},
    "rules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]},
              {"nonResourceURLs": ["*"], "verbs": ["get"]}]})"));
  EXPECT_EQ(objects[1].kind.resource.resource, "clusterrolebindings");
  EXPECT_EQ(objects[1].object, Json::parse(R"({
    "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
    "metadata": {"name": "kubefed-controller-manager:m1-host"},
    "subjects": [{"kind": "ServiceAccount", "name": "m1-host", "namespace": "kf"}],
    "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                "name": "kubefed-controller-manager:m1-host"}})"));
}

// Verifies Namespaced scope grants everything in the KubeFed namespace only, plus KubeFed's
// health-check ClusterRole with its capitalised "Get" (spec §8).
TEST(RbacObjectsTest, NamespacedScopeGrantsTheNamespaceAndAHealthCheck) {
  const auto objects = rbacObjects(JoinScope::kNamespaced, "m1-host", "kf");
  ASSERT_EQ(objects.size(), 4u);
  EXPECT_EQ(objects[0].object, Json::parse(R"({
    "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
    "metadata": {"name": "kubefed-controller-manager:m1-host", "namespace": "kf"},
    "rules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}]})"));
  EXPECT_EQ(objects[1].object, Json::parse(R"({
    "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
    "metadata": {"name": "kubefed-controller-manager:m1-host", "namespace": "kf"},
    "subjects": [{"kind": "ServiceAccount", "name": "m1-host", "namespace": "kf"}],
    "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role",
                "name": "kubefed-controller-manager:m1-host"}})"));
  EXPECT_EQ(objects[2].object, Json::parse(R"({
    "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
    "metadata": {"name": "kubefed-controller-manager:kf:healthcheck-m1-host"},
    "rules": [{"verbs": ["Get"], "nonResourceURLs": ["/healthz"]},
              {"verbs": ["list"], "apiGroups": [""], "resources": ["nodes"]}]})"));
  EXPECT_EQ(objects[3].object["roleRef"]["name"],
            "kubefed-controller-manager:kf:healthcheck-m1-host");
  EXPECT_EQ(objects[3].object["subjects"][0]["namespace"], "kf");
  EXPECT_EQ(objects[3].kind.resource.resource, "clusterrolebindings");
}

// Verifies the token Secret asks the token controller for the service account's token.
TEST(JoinObjectsTest, TokenSecretNamesItsServiceAccount) {
  EXPECT_EQ(tokenSecretObject("m1-host", "kf"), Json::parse(R"({
    "apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/service-account-token",
    "metadata": {"name": "m1-host-token", "namespace": "kf",
                 "annotations": {"kubernetes.io/service-account.name": "m1-host"}}})"));
  EXPECT_EQ(serviceAccountObject("m1-host", "kf"), Json::parse(R"({
    "apiVersion": "v1", "kind": "ServiceAccount",
    "metadata": {"name": "m1-host", "namespace": "kf"}})"));
}

// Verifies a token is read only once the token controller has written one.
TEST(JoinObjectsTest, TokenIsReadOnlyOnceFilled) {
  EXPECT_FALSE(tokenFrom(Json::parse(R"({"metadata": {"name": "s"}})")));
  EXPECT_FALSE(tokenFrom(Json::parse(R"({"data": {"token": ""}})")));
  auto without_ca = tokenFrom(Json::parse(R"({"data": {"token": "dG9r"}})"));
  ASSERT_TRUE(without_ca);
  EXPECT_EQ(without_ca->token_base64, "dG9r");
  EXPECT_EQ(without_ca->ca_crt_base64, "");
  auto with_ca = tokenFrom(Json::parse(R"({"data": {"token": "dG9r", "ca.crt": "Y2E="}})"));
  ASSERT_TRUE(with_ca);
  EXPECT_EQ(with_ca->ca_crt_base64, "Y2E=");
}

// Verifies the host Secret holds only the token, is generated from the cluster name unless
// named, and records which cluster it belongs to.
TEST(JoinObjectsTest, HostSecretHoldsOnlyTheToken) {
  EXPECT_EQ(hostSecretObject("m1", "kf", "", "dG9r"), Json::parse(R"({
    "apiVersion": "v1", "kind": "Secret", "data": {"token": "dG9r"},
    "metadata": {"generateName": "m1-", "namespace": "kf",
                 "annotations": {"kubefedctl.kubefed.io/joined-cluster": "m1"}}})"));
  const Json named = hostSecretObject("m1", "kf", "secret", "dG9r");
  EXPECT_EQ(named["metadata"]["name"], "secret");
  EXPECT_FALSE(named["metadata"].contains("generateName"));
}

// Verifies the KubeFedCluster's CA comes from the kubeconfig first, else from the token Secret,
// and that an insecure kubeconfig entry disables every TLS validation.
TEST(JoinObjectsTest, KubeFedClusterTakesTheKubeconfigCaFirst) {
  JoiningEndpoint endpoint{"https://10.0.0.1:6443", kPem, false, ""};
  const Json with_kubeconfig_ca = kubefedClusterObject(endpoint, "m1", "kf", "m1-abcde", "U0E=");
  EXPECT_EQ(with_kubeconfig_ca, Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1beta1", "kind": "KubeFedCluster",
    "metadata": {"name": "m1", "namespace": "kf"},
    "spec": {"apiEndpoint": "https://10.0.0.1:6443",
             "caBundle": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=",
             "secretRef": {"name": "m1-abcde"}}})"));
  endpoint.ca_pem.clear();
  EXPECT_EQ(kubefedClusterObject(endpoint, "m1", "kf", "s", "U0E=")["spec"]["caBundle"], "U0E=");
  endpoint.insecure_skip_tls_verify = true;
  const Json insecure = kubefedClusterObject(endpoint, "m1", "kf", "s", "");
  EXPECT_EQ(insecure["spec"]["disabledTLSValidations"], Json({"*"}));
  EXPECT_FALSE(insecure["spec"].contains("caBundle"));
}

// Verifies the endpoint is read from the kubeconfig entry as written, proxy and CA included.
TEST(JoinObjectsTest, JoiningEndpointComesFromTheKubeconfigContext) {
  auto kubeconfig = parseKubeconfig(R"(
apiVersion: v1
kind: Config
clusters:
- name: c1
  cluster:
    server: https://member.example:6443/
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=
    proxy-url: http://proxy.example:3128
- name: c2
  cluster:
    server: https://insecure.example
    insecure-skip-tls-verify: true
contexts:
- {name: member1, context: {cluster: c1}}
- {name: member2, context: {cluster: c2}}
current-context: member2
)",
                                    "test-kubeconfig");
  ASSERT_TRUE(kubeconfig) << kubeconfig.error().message;
  auto member1 = joiningEndpoint(kubeconfig.value(), "member1");
  ASSERT_TRUE(member1) << member1.error().message;
  EXPECT_EQ(member1.value().server, "https://member.example:6443/");
  EXPECT_EQ(member1.value().ca_pem, kPem);
  EXPECT_EQ(member1.value().proxy_url, "http://proxy.example:3128");
  EXPECT_FALSE(member1.value().insecure_skip_tls_verify);
  auto current = joiningEndpoint(kubeconfig.value(), "");
  ASSERT_TRUE(current);
  EXPECT_TRUE(current.value().insecure_skip_tls_verify);
  auto missing = joiningEndpoint(kubeconfig.value(), "member3");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("context \"member3\" not found"), std::string::npos);
}

// Verifies unjoin looks for the RBAC of both scopes, bindings before roles, and removes the
// token Secret before its ServiceAccount.
TEST(UnjoinObjectsTest, RemovesWhatEitherScopeCreatedInOrder) {
  std::vector<std::string> described;
  for (const auto& ref : joinedMemberObjects("m1-host", "kf")) {
    described.push_back(ref.kind.display + " " + (ref.ns.empty() ? "" : ref.ns + "/") + ref.name);
  }
  EXPECT_EQ(described,
            (std::vector<std::string>{
                "clusterrolebinding.rbac.authorization.k8s.io kubefed-controller-manager:m1-host",
                "clusterrole.rbac.authorization.k8s.io kubefed-controller-manager:m1-host",
                "clusterrolebinding.rbac.authorization.k8s.io "
                "kubefed-controller-manager:kf:healthcheck-m1-host",
                "clusterrole.rbac.authorization.k8s.io "
                "kubefed-controller-manager:kf:healthcheck-m1-host",
                "rolebinding.rbac.authorization.k8s.io kf/kubefed-controller-manager:m1-host",
                "role.rbac.authorization.k8s.io kf/kubefed-controller-manager:m1-host",
                "secret kf/m1-host-token", "serviceaccount kf/m1-host"}));
}

}  // namespace
}  // namespace kf::kubefedctl
