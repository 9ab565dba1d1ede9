// Kubeconfigs as users have them, against a real kube-apiserver: exec credential plugins (a
// shell script standing in for aws/gke-gcloud-auth-plugin/kubelogin) issuing tokens and client
// certificates, renewed before they expire and after a 401; token files re-read; impersonation,
// checked through the identity the server reports (SelfSubjectReview) and what RBAC allows it.
// Basic authentication is not here: kube-apiserver 1.33 no longer accepts it (--basic-auth-file
// was removed in 1.19), so its header is covered by unit tests only.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "apis/meta/time.h"
#include "federation/client/kubeconfig.h"
#include "federation/client/resource_client.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"
#include "tests/support/fake_clock.h"

namespace kf::integration {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A credential plugin: records its arguments and KUBERNETES_EXEC_INFO, counts its runs, and
// prints credential-<run>.json, else credential.json; exits with the code in exit-code, if any.
constexpr const char* kPluginScript = R"sh(#!/bin/sh
dir=$(dirname "$0")
n=$(cat "$dir/runs" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$dir/runs"
printf '%s' "$*" >"$dir/args"
printf '%s' "$KUBERNETES_EXEC_INFO" >"$dir/exec-info"
printf '%s' "$PLUGIN_PROFILE" >"$dir/profile"
echo "issuing credential $n" >&2
if [ -f "$dir/exit-code" ]; then exit "$(cat "$dir/exit-code")"; fi
if [ -f "$dir/credential-$n.json" ]; then cat "$dir/credential-$n.json"; else cat "$dir/credential.json"; fi
)sh";

// A directory of the test's own holding the plugin, its outputs and the kubeconfig.
class AuthWorkspace {
 public:
  AuthWorkspace()
      : dir_(fs::temp_directory_path() /
             ("kf-auth-" + std::to_string(::getpid()) + "-" + std::to_string(++counter_))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("plugin.sh", kPluginScript);
    ::chmod(path("plugin.sh").c_str(), 0755);
  }
  ~AuthWorkspace() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  AuthWorkspace(const AuthWorkspace&) = delete;
  AuthWorkspace& operator=(const AuthWorkspace&) = delete;

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& contents) const {
    std::ofstream(dir_ / name, std::ios::binary | std::ios::trunc) << contents;
  }
  std::string read(const std::string& name) const { return readFile(path(name)); }
  int runs() const { return std::atoi(read("runs").c_str()); }

  // A kubeconfig whose context uses the host cluster (its CA, no credentials) and `user_body`.
  std::string kubeconfig(const std::string& user_body) const {
    const LocalClusters& clusters = LocalClusters::get();
    write("config",
          "apiVersion: v1\nkind: Config\ncurrent-context: ctx\n"
          "clusters:\n- name: host\n  cluster:\n    server: " +
              clusters.env("KF_HOST_SERVER") +
              "\n    certificate-authority: " + clusters.env("KF_CA_FILE") +
              "\n    extensions:\n    - name: client.authentication.k8s.io/exec\n"
              "      extension: {audience: kubefed-test}\n"
              "users:\n- name: me\n  user:\n" +
              user_body + "contexts:\n- name: ctx\n  context: {cluster: host, user: me}\n");
    return path("config");
  }

  // The user body of an exec plugin of this workspace.
  std::string execUser(const std::string& api_version = "client.authentication.k8s.io/v1") const {
    return "    exec:\n      apiVersion: " + api_version + "\n      command: " + path("plugin.sh") +
           "\n      args: [get-token, --cluster, host]\n"
           "      env: [{name: PLUGIN_PROFILE, value: federation}]\n"
           "      interactiveMode: Never\n      provideClusterInfo: true\n";
  }

 private:
  static inline std::atomic<int> counter_{0};
  fs::path dir_;
};

std::string tokenCredential(const std::string& token, const std::string& expiry = "",
                            const std::string& api_version = "client.authentication.k8s.io/v1") {
  Json status = {{"token", token}};
  if (!expiry.empty()) status["expirationTimestamp"] = expiry;
  return Json{{"apiVersion", api_version}, {"kind", "ExecCredential"}, {"status", status}}.dump();
}

Result<std::unique_ptr<RestClient>> clientFor(const std::string& kubeconfig,
                                              Clock& clock = realClock()) {
  KF_TRY(config, loadRestConfig(KubeconfigOptions{kubeconfig, "", "", ""}));
  config.qps = 0;  // no client-side throttling: some tests run on a fake clock
  return RestClient::create(config, clock);
}

// The user the server authenticated the client as (SelfSubjectReview status.userInfo).
Result<Json> authenticatedUser(RestClient& client) {
  KF_TRY(review, client.sendJson({.method = "POST",
                                  .path = "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                                  .body = R"({"apiVersion":"authentication.k8s.io/v1",
                                      "kind":"SelfSubjectReview"})",
                                  .idempotent = false}));
  return review["status"]["userInfo"];
}

std::string usernameOf(RestClient& client) {
  auto user = authenticatedUser(client);
  return user ? user.value().value("username", "") : "error: " + user.error().describe();
}

class KubeconfigAuthServerTest : public ::testing::Test {
 protected:
  const LocalClusters& clusters_ = LocalClusters::get();
  AuthWorkspace workspace_;
};

TEST_F(KubeconfigAuthServerTest, ExecPluginTokenAuthenticatesAndThePluginLearnsAboutTheCluster) {
  workspace_.write("credential.json", tokenCredential(clusters_.env("KF_HOST_TOKEN")));
  auto client = clientFor(workspace_.kubeconfig(workspace_.execUser()));
  ASSERT_TRUE(client) << client.error().describe();
  EXPECT_EQ(usernameOf(*client.value()), "kf-admin");
  auto namespaces = ResourceClient(*client.value(), kNamespaces).list({});
  ASSERT_TRUE(namespaces) << namespaces.error().describe();
  EXPECT_EQ(workspace_.runs(), 1) << "a credential without expiry is reused";

  EXPECT_EQ(workspace_.read("args"), "get-token --cluster host");
  EXPECT_EQ(workspace_.read("profile"), "federation");
  const Json info = Json::parse(workspace_.read("exec-info"));
  EXPECT_EQ(info["apiVersion"], "client.authentication.k8s.io/v1");
  EXPECT_EQ(info["kind"], "ExecCredential");
  EXPECT_EQ(info["spec"]["interactive"], false);
  EXPECT_EQ(info["spec"]["cluster"]["server"], clusters_.env("KF_HOST_SERVER"));
  EXPECT_EQ(info["spec"]["cluster"]["config"], Json({{"audience", "kubefed-test"}}));
  EXPECT_FALSE(info["spec"]["cluster"].value("certificate-authority-data", "").empty());
}

TEST_F(KubeconfigAuthServerTest, ExecPluginClientCertificateAuthenticates) {
  workspace_.write("credential.json",
                   Json{{"apiVersion", "client.authentication.k8s.io/v1beta1"},
                        {"kind", "ExecCredential"},
                        {"status",
                         {{"clientCertificateData", readFile(clusters_.env("KF_ADMIN_CERT_FILE"))},
                          {"clientKeyData", readFile(clusters_.env("KF_ADMIN_KEY_FILE"))}}}}
                       .dump());
  auto client =
      clientFor(workspace_.kubeconfig(workspace_.execUser("client.authentication.k8s.io/v1beta1")));
  ASSERT_TRUE(client) << client.error().describe();
  auto user = authenticatedUser(*client.value());
  ASSERT_TRUE(user) << user.error().describe();
  EXPECT_EQ(user.value()["username"], "kf-admin");
  // The certificate's identity, not the static token's (which carries a uid).
  EXPECT_FALSE(user.value().contains("uid")) << user.value().dump();
  EXPECT_NE(user.value()["groups"].dump().find("system:masters"), std::string::npos);
  // Watches open their own connections: they present the certificate too.
  auto stream = client.value()->openStream(
      {.path = "/api/v1/namespaces", .query = {{"watch", "true"}, {"timeoutSeconds", "1"}}});
  ASSERT_TRUE(stream) << stream.error().describe();
  EXPECT_EQ(stream.value()->status(), 200);
}

TEST_F(KubeconfigAuthServerTest, ARejectedExecTokenIsRenewedAndTheRequestSentAgain) {
  workspace_.write("credential-1.json", tokenCredential("revoked-token"));
  workspace_.write("credential.json", tokenCredential(clusters_.env("KF_HOST_TOKEN")));
  auto client = clientFor(workspace_.kubeconfig(workspace_.execUser()));
  ASSERT_TRUE(client) << client.error().describe();
  auto created = ResourceClient(*client.value(), kNamespaces)
                     .create({{"apiVersion", "v1"},
                              {"kind", "Namespace"},
                              {"metadata", {{"generateName", "kf-auth-"}}}});
  ASSERT_TRUE(created) << created.error().describe();
  EXPECT_EQ(workspace_.runs(), 2);
  (void)ResourceClient(*client.value(), kNamespaces).remove(objectName(created.value()));
}

TEST_F(KubeconfigAuthServerTest, AnExpiringExecTokenIsRenewedBeforeItExpires) {
  test::FakeClock clock;
  const auto in = [&](std::chrono::seconds delay) {
    return meta::formatTime(clock.wallNow() + delay);
  };
  workspace_.write("credential-1.json", tokenCredential(clusters_.env("KF_HOST_TOKEN"), in(60s)));
  workspace_.write("credential.json", tokenCredential(clusters_.env("KF_HOST_USER_TOKEN")));
  auto client = clientFor(workspace_.kubeconfig(workspace_.execUser()), clock);
  ASSERT_TRUE(client) << client.error().describe();
  EXPECT_EQ(usernameOf(*client.value()), "kf-admin");
  clock.advance(40s);
  EXPECT_EQ(usernameOf(*client.value()), "kf-admin");
  EXPECT_EQ(workspace_.runs(), 1);
  clock.advance(15s);  // 5 s left: renewed before it is sent
  EXPECT_EQ(usernameOf(*client.value()), "kf-user");
  EXPECT_EQ(workspace_.runs(), 2);
}

TEST_F(KubeconfigAuthServerTest, ExecPluginFailuresAreClearErrors) {
  const std::string missing_user =
      "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n"
      "      command: kf-no-such-credential-plugin\n"
      "      installHint: install it with the cloud SDK\n";
  auto missing = clientFor(workspace_.kubeconfig(missing_user));
  ASSERT_TRUE(missing) << missing.error().describe();
  auto not_found = missing.value()->send({.path = "/api"});
  ASSERT_FALSE(not_found);
  EXPECT_NE(not_found.error().message.find(
                "users[name=\"me\"].user.exec: getting credentials: exec: executable "
                "kf-no-such-credential-plugin not found"),
            std::string::npos)
      << not_found.error().message;
  EXPECT_NE(not_found.error().message.find("install it with the cloud SDK"), std::string::npos);

  auto client = clientFor(workspace_.kubeconfig(workspace_.execUser()));
  ASSERT_TRUE(client) << client.error().describe();
  workspace_.write("exit-code", "3");
  auto failed = client.value()->send({.path = "/api"});
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("exec: executable " + workspace_.path("plugin.sh") +
                                        " failed with exit code 3"),
            std::string::npos)
      << failed.error().message;

  fs::remove(workspace_.path("exit-code"));
  workspace_.write("credential.json", "token: " + clusters_.env("KF_HOST_TOKEN") + "\n");
  auto garbled = client.value()->send({.path = "/api"});
  ASSERT_FALSE(garbled);
  EXPECT_NE(garbled.error().message.find("decoding stdout: not JSON"), std::string::npos)
      << garbled.error().message;
  EXPECT_EQ(garbled.error().message.find(clusters_.env("KF_HOST_TOKEN")), std::string::npos);
}

TEST_F(KubeconfigAuthServerTest, ImpersonationActsAsTheNamedUser) {
  const std::string admin_token = clusters_.env("KF_HOST_TOKEN");
  auto client = clientFor(workspace_.kubeconfig(
      "    token: " + admin_token +
      "\n    as: kf-user\n    as-uid: uid-of-kf-user\n    as-groups: [team-a, team-b]\n"
      "    as-user-extra: {reason: [review], example.com/ticket: [T-1]}\n"));
  ASSERT_TRUE(client) << client.error().describe();
  auto user = authenticatedUser(*client.value());
  ASSERT_TRUE(user) << user.error().describe();
  EXPECT_EQ(user.value()["username"], "kf-user");
  EXPECT_EQ(user.value()["uid"], "uid-of-kf-user");
  EXPECT_EQ(user.value()["groups"], Json::parse(R"(["team-a", "team-b", "system:authenticated"])"));
  EXPECT_EQ(user.value()["extra"],
            Json::parse(R"({"reason": ["review"], "example.com/ticket": ["T-1"]})"));
  // kf-user has no RBAC rights: the impersonated request is denied as kf-user.
  auto listed = ResourceClient(*client.value(), kNamespaces).list({});
  ASSERT_FALSE(listed);
  EXPECT_TRUE(isForbidden(listed.error())) << listed.error().describe();
  EXPECT_NE(listed.error().message.find("User \"kf-user\" cannot list resource \"namespaces\""),
            std::string::npos)
      << listed.error().message;
}

TEST_F(KubeconfigAuthServerTest, ATokenFileIsReReadWhenTheServerRejectsItsToken) {
  test::FakeClock clock;
  workspace_.write("token", clusters_.env("KF_HOST_USER_TOKEN") + "\n");
  auto client =
      clientFor(workspace_.kubeconfig("    tokenFile: " + workspace_.path("token") + "\n"), clock);
  ASSERT_TRUE(client) << client.error().describe();
  EXPECT_EQ(usernameOf(*client.value()), "kf-user");

  // Rotated within the minute: the old token is still in use...
  workspace_.write("token", clusters_.env("KF_HOST_TOKEN") + "\n");
  EXPECT_EQ(usernameOf(*client.value()), "kf-user");
  // ...until a minute passed.
  clock.advance(61s);
  EXPECT_EQ(usernameOf(*client.value()), "kf-admin");

  // A token the server rejects sends the client back to the file at once.
  workspace_.write("token", "revoked\n");
  clock.advance(61s);
  auto rejected = authenticatedUser(*client.value());
  ASSERT_FALSE(rejected);
  EXPECT_TRUE(isUnauthorized(rejected.error())) << rejected.error().describe();
  workspace_.write("token", clusters_.env("KF_HOST_USER_TOKEN") + "\n");
  EXPECT_EQ(usernameOf(*client.value()), "kf-user");  // within the minute: read after the 401
}

}  // namespace
}  // namespace kf::integration
