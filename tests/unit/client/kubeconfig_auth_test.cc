// The authentication methods of kubeconfig users beyond certificates and tokens: basic auth,
// exec credential plugins, impersonation, and auth-provider entries (oidc read into the config;
// the others refused with the plugin that replaced them).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "federation/client/base64.h"
#include "federation/client/kubeconfig.h"

namespace kf {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

constexpr const char* kSource = "/home/me/.kube/config";
constexpr const char* kAuthCaPem =
    "-----BEGIN CERTIFICATE-----\nQ0EgY2VydA==\n-----END CERTIFICATE-----\n";

// A kubeconfig whose only context uses the cluster and the user the test writes.
std::string withUser(const std::string& user_body, const std::string& cluster_extra = "") {
  return "current-context: ctx\n"
         "clusters:\n"
         "- name: c\n"
         "  cluster:\n"
         "    server: https://api.example.com:6443\n" +
         cluster_extra +
         "users:\n"
         "- name: u\n"
         "  user:\n" +
         user_body +
         "contexts:\n"
         "- name: ctx\n"
         "  context: {cluster: c, user: u}\n";
}

Result<RestConfig> resolve(const std::string& text) {
  auto parsed = parseKubeconfig(text, kSource);
  if (!parsed) return parsed.error();
  return restConfigFor(parsed.value(), "");
}

std::string failureOf(const std::string& text) {
  const auto resolved = resolve(text);
  EXPECT_FALSE(resolved.has_value());
  if (resolved.has_value()) return "";
  EXPECT_EQ(resolved.error().reason, Reason::kBadConfig);
  return resolved.error().message;
}

std::string userField(const std::string& field) {
  return "kubeconfig \"" + std::string(kSource) + "\": users[name=\"u\"].user" + field + ": ";
}

TEST(KubeconfigAuthTest, ReadsBasicAuthentication) {
  const auto config = resolve(withUser("    username: admin\n    password: hunter2\n"));
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().username, "admin");
  EXPECT_EQ(config.value().password, "hunter2");
  EXPECT_FALSE(config.value().exec.has_value());
}

TEST(KubeconfigAuthTest, RefusesATokenTogetherWithBasicAuthenticationInClientGosWords) {
  const std::string message =
      failureOf(withUser("    token: t0k3n\n    username: admin\n    password: hunter2\n"));
  EXPECT_EQ(message, userField("") +
                         "more than one authentication method found for \"u\"; found [token "
                         "basicAuth], only one is allowed");
  EXPECT_THAT(message, Not(HasSubstr("t0k3n")));
  EXPECT_THAT(message, Not(HasSubstr("hunter2")));
}

TEST(KubeconfigAuthTest, ReadsImpersonation) {
  const auto config = resolve(withUser(
      "    token: t\n"
      "    as: jane\n"
      "    as-uid: \"1234\"\n"
      "    as-groups: [developers, auditors]\n"
      "    as-user-extra: {scopes.example.com/project: [alpha, beta], reason: [review]}\n"));
  ASSERT_TRUE(config.has_value()) << config.error().message;
  const Impersonation& as = config.value().impersonate;
  EXPECT_EQ(as.user, "jane");
  EXPECT_EQ(as.uid, "1234");
  EXPECT_THAT(as.groups, ElementsAre("developers", "auditors"));
  EXPECT_THAT(as.extra,
              ElementsAre(Pair("reason", ElementsAre("review")),
                          Pair("scopes.example.com/project", ElementsAre("alpha", "beta"))));
}

TEST(KubeconfigAuthTest, RefusesImpersonationDetailsWithoutAUser) {
  EXPECT_EQ(failureOf(withUser("    token: t\n    as-groups: [developers]\n")),
            userField(".as") +
                "requesting uid, groups or user-extra for \"u\" without impersonating a user");
}

TEST(KubeconfigAuthTest, RejectsAsGroupsThatAreNotAList) {
  EXPECT_EQ(failureOf(withUser("    as: jane\n    as-groups: developers\n")),
            userField(".as-groups") + "expected a list of strings");
}

TEST(KubeconfigAuthTest, ReadsAnExecPlugin) {
  const auto config =
      resolve(withUser("    exec:\n"
                       "      apiVersion: client.authentication.k8s.io/v1\n"
                       "      command: aws\n"
                       "      args: [eks, get-token, --cluster-name, prod]\n"
                       "      env: [{name: AWS_PROFILE, value: prod}]\n"
                       "      interactiveMode: Never\n"
                       "      installHint: install the AWS CLI\n"));
  ASSERT_TRUE(config.has_value()) << config.error().message;
  ASSERT_TRUE(config.value().exec.has_value());
  const ExecConfig& exec = *config.value().exec;
  EXPECT_EQ(exec.command, "aws");
  EXPECT_THAT(exec.args, ElementsAre("eks", "get-token", "--cluster-name", "prod"));
  EXPECT_THAT(exec.env, ElementsAre(Pair("AWS_PROFILE", "prod")));
  EXPECT_EQ(exec.api_version, "client.authentication.k8s.io/v1");
  EXPECT_EQ(exec.interactive_mode, "Never");
  EXPECT_EQ(exec.install_hint, "install the AWS CLI");
  EXPECT_TRUE(exec.cluster.is_null());
  EXPECT_EQ(exec.origin,
            "kubeconfig \"" + std::string(kSource) + "\": users[name=\"u\"].user.exec");
}

TEST(KubeconfigAuthTest, ResolvesARelativeCommandPathAgainstTheKubeconfigDirectory) {
  const std::string exec = "    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ";
  const auto relative = resolve(withUser(exec + "./bin/plugin}\n"));
  ASSERT_TRUE(relative.has_value()) << relative.error().message;
  EXPECT_EQ(relative.value().exec->command, "/home/me/.kube/bin/plugin");
  const auto in_path = resolve(withUser(exec + "gke-gcloud-auth-plugin}\n"));
  ASSERT_TRUE(in_path.has_value()) << in_path.error().message;
  EXPECT_EQ(in_path.value().exec->command, "gke-gcloud-auth-plugin");
}

TEST(KubeconfigAuthTest, DefaultsInteractiveModeForV1Beta1AndRequiresItForV1) {
  const auto beta = resolve(
      withUser("    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: p}\n"));
  ASSERT_TRUE(beta.has_value()) << beta.error().message;
  EXPECT_EQ(beta.value().exec->interactive_mode, "IfAvailable");
  EXPECT_EQ(failureOf(withUser("    exec: {apiVersion: client.authentication.k8s.io/v1, "
                               "command: p}\n")),
            userField(".exec.interactiveMode") +
                "interactiveMode must be specified for \"u\" to use exec authentication plugin");
}

TEST(KubeconfigAuthTest, ExplainsWhatIsWrongWithAnExecPlugin) {
  EXPECT_EQ(failureOf(withUser("    exec: {apiVersion: client.authentication.k8s.io/v1beta1}\n")),
            userField(".exec.command") +
                "command must be specified for \"u\" to use exec authentication plugin");
  EXPECT_EQ(failureOf(withUser("    exec: {command: p}\n")),
            userField(".exec.apiVersion") +
                "apiVersion must be specified for \"u\" to use exec authentication plugin");
  EXPECT_THAT(failureOf(withUser(
                  "    exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: p}\n")),
              HasSubstr(userField(".exec.apiVersion") +
                        "client.authentication.k8s.io/v1alpha1 is no longer supported"));
  EXPECT_EQ(failureOf(withUser("    exec: {apiVersion: example.com/v1, command: p}\n")),
            userField(".exec.apiVersion") +
                "unsupported version \"example.com/v1\": expected "
                "client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1");
  EXPECT_EQ(failureOf(withUser("    exec: {apiVersion: client.authentication.k8s.io/v1, command: "
                               "p, interactiveMode: Sometimes}\n")),
            userField(".exec.interactiveMode") +
                "invalid interactiveMode for \"u\": \"Sometimes\" (expected Never, IfAvailable "
                "or Always)");
  EXPECT_EQ(failureOf(withUser("    exec: {apiVersion: client.authentication.k8s.io/v1beta1, "
                               "command: p, env: [{value: x}]}\n")),
            userField(".exec.env[0].name") +
                "env variable name must be specified for \"u\" to use exec authentication plugin");
  EXPECT_EQ(failureOf(withUser("    exec: [p]\n")), userField(".exec") + "expected a mapping");
}

TEST(KubeconfigAuthTest, GivesAPluginThatAsksForItTheClusterInformation) {
  const auto config = resolve(
      withUser("    exec: {apiVersion: client.authentication.k8s.io/v1, command: p, "
               "interactiveMode: Never, provideClusterInfo: true}\n",
               "    certificate-authority-data: " + base64Encode(kAuthCaPem) +
                   "\n"
                   "    tls-server-name: api.internal\n"
                   "    proxy-url: http://proxy:3128\n"
                   "    extensions:\n"
                   "    - name: other.example.com/ext\n"
                   "      extension: {ignored: true}\n"
                   "    - name: client.authentication.k8s.io/exec\n"
                   "      extension: {audience: prod, retries: 3, strict: false, id: \"007\"}\n"));
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config.value().exec->cluster, Json::parse(R"({"server": "https://api.example.com:6443",
                            "tls-server-name": "api.internal",
                            "certificate-authority-data": ")" +
                                                      base64Encode(kAuthCaPem) + R"(",
                            "proxy-url": "http://proxy:3128",
                            "config": {"audience": "prod", "retries": 3, "strict": false,
                                       "id": "007"}})"));
}

TEST(KubeconfigAuthTest, NamesThePluginThatReplacedEachAuthProvider) {
  const std::string gcp = failureOf(withUser(
      "    auth-provider: {name: gcp, config: {access-token: ya29.s3cret, cmd-path: gcloud}}\n"));
  EXPECT_EQ(gcp, userField(".auth-provider") +
                     "The gcp auth plugin has been removed.\nPlease use the "
                     "\"gke-gcloud-auth-plugin\" kubectl/client-go credential plugin instead.\n"
                     "See https://cloud.google.com/blog/products/containers-kubernetes/"
                     "kubectl-auth-changes-in-gke for further details");
  EXPECT_THAT(gcp, Not(HasSubstr("ya29")));
  EXPECT_THAT(failureOf(withUser("    auth-provider: {name: azure}\n")),
              HasSubstr("The azure auth plugin has been removed.\nPlease use the "
                        "https://github.com/Azure/kubelogin kubectl/client-go credential plugin"));
  EXPECT_EQ(failureOf(withUser("    auth-provider: {name: openstack}\n")),
            userField(".auth-provider") +
                "The openstack auth plugin has been removed.\nPlease use the "
                "\"client-keystone-auth\" kubectl/client-go credential plugin instead.\nSee "
                "https://github.com/kubernetes/cloud-provider-openstack/blob/master/docs/"
                "using-client-keystone-auth.md for further details");
  EXPECT_EQ(failureOf(withUser("    auth-provider: {name: keycloak}\n")),
            userField(".auth-provider") +
                "no Auth Provider found for name \"keycloak\": kubefed-cpp has only the oidc auth "
                "provider; use a kubectl/client-go credential plugin (exec) instead");
  EXPECT_EQ(failureOf(withUser("    auth-provider: {name: gcp}\n"
                               "    exec: {apiVersion: client.authentication.k8s.io/v1beta1, "
                               "command: p}\n")),
            userField(".auth-provider") +
                "authProvider cannot be provided in combination with an exec plugin for \"u\"");
}

TEST(KubeconfigAuthTest, ReadsAnOidcAuthProvider) {
  const auto config =
      resolve(withUser("    auth-provider:\n"
                       "      name: oidc\n"
                       "      config:\n"
                       "        idp-issuer-url: https://dex.example.com/dex\n"
                       "        client-id: kubefed\n"
                       "        client-secret: \"0123\"\n"
                       "        idp-certificate-authority-data: " +
                       base64Encode(kAuthCaPem) +
                       "\n"
                       "        id-token: a.b.c\n"
                       "        refresh-token: r1\n"
                       "        extra-scopes: groups\n"));
  ASSERT_TRUE(config.has_value()) << config.error().message;
  ASSERT_TRUE(config.value().oidc.has_value());
  const OidcConfig& oidc = *config.value().oidc;
  EXPECT_EQ(oidc.issuer_url, "https://dex.example.com/dex");
  EXPECT_EQ(oidc.client_id, "kubefed");
  EXPECT_EQ(oidc.client_secret, "0123");
  EXPECT_EQ(oidc.issuer_ca_pem, kAuthCaPem);
  EXPECT_EQ(oidc.id_token, "a.b.c");
  EXPECT_EQ(oidc.refresh_token, "r1");
  EXPECT_EQ(oidc.kubeconfig_file, kSource);
  EXPECT_EQ(oidc.user_name, "u");
  EXPECT_EQ(oidc.origin,
            "kubeconfig \"" + std::string(kSource) + "\": users[name=\"u\"].user.auth-provider");
}

TEST(KubeconfigAuthTest, ExplainsWhatIsWrongWithAnOidcAuthProvider) {
  const auto oidc = [](const std::string& config) {
    return withUser("    auth-provider:\n      name: oidc\n      config: {" + config + "}\n");
  };
  EXPECT_EQ(failureOf(oidc("client-id: k")),
            userField(".auth-provider.config.idp-issuer-url") +
                "idp-issuer-url must be specified for \"u\" to use the oidc auth provider");
  EXPECT_EQ(failureOf(oidc("idp-issuer-url: https://dex")),
            userField(".auth-provider.config.client-id") +
                "client-id must be specified for \"u\" to use the oidc auth provider");
  EXPECT_THAT(failureOf(oidc("idp-issuer-url: \"http://dex\", client-id: k")),
              HasSubstr(userField(".auth-provider.config.idp-issuer-url") +
                        "\"http://dex\" is not an https:// URL"));
  EXPECT_EQ(failureOf(oidc("idp-issuer-url: https://dex, client-id: k, "
                           "idp-certificate-authority-data: \"!!\"")),
            userField(".auth-provider.config.idp-certificate-authority-data") + "invalid base64");
  EXPECT_EQ(failureOf(oidc("idp-issuer-url: https://dex, client-id: k, "
                           "idp-certificate-authority: /nonexistent/ca.pem")),
            userField(".auth-provider.config.idp-certificate-authority") +
                "cannot read \"/nonexistent/ca.pem\": No such file or directory");
  EXPECT_EQ(failureOf(withUser("    auth-provider: {name: oidc, config: {client-id: [k]}}\n")),
            userField(".auth-provider.config.client-id") + "expected a string");
  EXPECT_EQ(failureOf(withUser("    auth-provider:\n      name: oidc\n      config: {"
                               "idp-issuer-url: https://dex, client-id: k}\n"
                               "    exec: {apiVersion: client.authentication.k8s.io/v1beta1, "
                               "command: p}\n")),
            userField(".auth-provider") +
                "authProvider cannot be provided in combination with an exec plugin for \"u\"");
}

}  // namespace
}  // namespace kf
