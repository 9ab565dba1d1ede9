// A kubeconfig with an oidc auth-provider against a real kube-apiserver that trusts an OpenID
// Connect issuer: the issuer is the test's own (HTTPS on 127.0.0.1, RS256-signed tokens, see
// tests/support/fake_oidc_issuer.h), and the API server is one this test starts on the
// fixture's etcd, PKI and binaries with --authentication-config naming that issuer (the
// fixture's servers cannot: the issuer's address is known only once the test runs). The server
// verifies every token itself (signature from the issuer's keys, issuer, audience, expiry), so
// what is checked is that the tokens our client refreshes are the ones a real server accepts.

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "federation/client/base64.h"
#include "federation/client/kubeconfig.h"
#include "federation/client/rest_client.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"
#include "tests/support/fake_oidc_issuer.h"
#include "tests/support/temp_dir.h"

namespace kf::integration {
namespace {

using namespace std::chrono_literals;

constexpr const char* kAudience = "kubefed-cpp";

// A port nothing listens on right now (the API server may still lose it to another process:
// then it exits and is started again on another).
int unusedPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  socklen_t size = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  ::close(fd);
  return ntohs(address.sin_port);
}

void writeFile(const std::string& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << contents;
}

// A kube-apiserver of this test's own whose JWT authenticator trusts `issuer` for kAudience,
// mapping the token's sub to the user "oidc:<sub>".
class ApiServerTrustingIssuer {
 public:
  explicit ApiServerTrustingIssuer(const test::FakeOidcIssuer& issuer) {
    std::string pem_lines;
    std::istringstream pem(issuer.caPem());
    for (std::string line; std::getline(pem, line);) pem_lines += "      " + line + "\n";
    writeFile(dir_.file("authentication.yaml"),
              "apiVersion: apiserver.config.k8s.io/v1beta1\n"
              "kind: AuthenticationConfiguration\n"
              "jwt:\n"
              "- issuer:\n"
              "    url: " +
                  issuer.url() +
                  "\n"
                  "    audiences: [" +
                  kAudience +
                  "]\n"
                  "    certificateAuthority: |\n" +
                  pem_lines +
                  "  claimMappings:\n"
                  "    username: {claim: sub, prefix: \"oidc:\"}\n");
    for (int attempt = 0; attempt < 3 && !ready_; ++attempt) start();
  }

  bool ready() const { return ready_; }
  const std::string& server() const { return server_; }
  std::string log() const { return process_ ? process_->log() : ""; }

 private:
  void start() {
    const LocalClusters& clusters = LocalClusters::get();
    const std::string run = clusters.env("KF_RUN_DIR");
    const int port = unusedPort();
    server_ = "https://127.0.0.1:" + std::to_string(port);
    process_ = std::make_unique<ChildProcess>(
        clusters.env("KF_BIN_DIR") + "/kube-apiserver",
        std::vector<std::string>{
            "--secure-port=" + std::to_string(port), "--bind-address=127.0.0.1",
            "--advertise-address=127.0.0.1", "--endpoint-reconciler-type=none",
            "--tls-cert-file=" + run + "/pki/apiserver.crt",
            "--tls-private-key-file=" + run + "/pki/apiserver.key",
            "--client-ca-file=" + run + "/pki/ca.crt",
            "--service-account-issuer=https://kubernetes.default.svc",
            "--service-account-key-file=" + run + "/host/sa.pub",
            "--service-account-signing-key-file=" + run + "/host/sa.key",
            "--authorization-mode=RBAC", "--etcd-servers=" + clusters.env("KF_ETCD_ENDPOINT"),
            "--etcd-prefix=/kf-oidc-" + std::to_string(::getpid()) + "/registry",
            "--service-cluster-ip-range=10.0.0.0/24", "--disable-admission-plugins=ServiceAccount",
            "--profiling=false", "--authentication-config=" + dir_.file("authentication.yaml"),
            "--v=1"});
    RestConfig anonymous;
    anonymous.server = server_;
    anonymous.tls.ca_pem = readFile(clusters.env("KF_CA_FILE"));
    anonymous.qps = 0;
    auto client = RestClient::create(anonymous, realClock());
    if (!client) return;
    ready_ = eventually(
        [&] {
          if (!process_->running()) return true;  // gave up (a taken port): start again
          auto answer = client.value()->send({.path = "/readyz"});
          return answer.has_value();
        },
        120s);
    ready_ = ready_ && process_->running();
  }

  test::TempDir dir_;
  std::unique_ptr<ChildProcess> process_;
  std::string server_;
  bool ready_ = false;
};

class OidcAuthServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    issuer_.setClient("kubefed", "client-s3cret");
    ASSERT_TRUE(server_.ready()) << "kube-apiserver did not become ready:\n" << server_.log();
    // The server's JWT authenticator fetches the issuer's keys in the background: wait until
    // it accepts a token at all before the test's own requests.
    RestConfig with_token;
    with_token.server = server_.server();
    with_token.tls.ca_pem = readFile(LocalClusters::get().env("KF_CA_FILE"));
    with_token.bearer_token = idToken("probe", 1h);
    with_token.qps = 0;
    auto probe = RestClient::create(with_token, realClock());
    ASSERT_TRUE(probe) << probe.error().describe();
    ASSERT_TRUE(eventually([&] { return usernameOf(*probe.value()) == "oidc:probe"; }, 60s))
        << usernameOf(*probe.value()) << "\n"
        << server_.log();
  }

  std::string idToken(const std::string& subject, std::chrono::seconds lifetime,
                      const std::string& audience = kAudience) const {
    const auto now = std::chrono::system_clock::now();
    const auto unix_seconds = [](auto time) {
      return std::chrono::duration_cast<std::chrono::seconds>(time.time_since_epoch()).count();
    };
    return issuer_.idToken({{"sub", subject},
                            {"aud", audience},
                            {"iat", unix_seconds(now - 1min)},
                            {"exp", unix_seconds(now + lifetime)}});
  }

  // A kubeconfig for the test's server with user "alice" holding these oidc tokens.
  std::string kubeconfig(const std::string& id_token, const std::string& refresh_token) {
    writeFile(dir_.file("config"),
              "apiVersion: v1\nkind: Config\ncurrent-context: ctx\n"
              "clusters:\n- name: oidc\n  cluster:\n    server: " +
                  server_.server() +
                  "\n    certificate-authority: " + LocalClusters::get().env("KF_CA_FILE") +
                  "\nusers:\n- name: alice\n  user:\n    auth-provider:\n      name: oidc\n"
                  "      config:\n"
                  "        idp-issuer-url: " +
                  issuer_.url() +
                  "\n        idp-certificate-authority-data: " + base64Encode(issuer_.caPem()) +
                  "\n        client-id: kubefed\n        client-secret: client-s3cret\n"
                  "        id-token: " +
                  id_token + "\n        refresh-token: " + refresh_token +
                  "\ncontexts:\n- name: ctx\n  context: {cluster: oidc, user: alice}\n");
    return dir_.file("config");
  }

  static Result<std::unique_ptr<RestClient>> clientFor(const std::string& kubeconfig) {
    KF_TRY(config, loadRestConfig(KubeconfigOptions{kubeconfig, "", "", ""}));
    config.qps = 0;
    return RestClient::create(config, realClock());
  }

  // The user the server authenticated the client as (SelfSubjectReview, which every
  // authenticated user may create).
  static std::string usernameOf(RestClient& client) {
    auto review = client.sendJson({.method = "POST",
                                   .path = "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                                   .body = R"({"apiVersion":"authentication.k8s.io/v1",
                                               "kind":"SelfSubjectReview"})",
                                   .idempotent = false});
    if (!review) return "error: " + review.error().describe();
    return review.value()["status"]["userInfo"].value("username", "");
  }

  std::string savedIdToken() const {
    const std::string text = readFile(dir_.file("config"));
    const auto start = text.find("id-token: ");
    if (start == std::string::npos) return "";
    std::string value = text.substr(start + 10, text.find('\n', start) - start - 10);
    if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
    return value;
  }

  test::FakeOidcIssuer issuer_;
  ApiServerTrustingIssuer server_{issuer_};
  test::TempDir dir_;
};

TEST_F(OidcAuthServerTest, AnExpiredIdTokenIsRefreshedAndTheServerAcceptsTheNewOne) {
  const std::string expired = idToken("alice", -2min);
  const std::string fresh = idToken("alice", 1h);
  issuer_.setRefreshGrant("refresh-1", fresh, "refresh-2");
  auto client = clientFor(kubeconfig(expired, "refresh-1"));
  ASSERT_TRUE(client) << client.error().describe();
  EXPECT_EQ(usernameOf(*client.value()), "oidc:alice");
  EXPECT_EQ(issuer_.tokenRequests().size(), 1u);
  EXPECT_EQ(savedIdToken(), fresh);

  // The same server refuses the expired token itself: the refresh was needed.
  RestConfig with_expired;
  with_expired.server = server_.server();
  with_expired.tls.ca_pem = readFile(LocalClusters::get().env("KF_CA_FILE"));
  with_expired.bearer_token = expired;
  auto direct = RestClient::create(with_expired, realClock());
  ASSERT_TRUE(direct) << direct.error().describe();
  EXPECT_NE(usernameOf(*direct.value()), "oidc:alice");
}

TEST_F(OidcAuthServerTest, ATokenTheServerRejectsIsRefreshedAndTheRequestSentAgain) {
  // Not expired, but for another audience: only the server can tell it is no good.
  const std::string wrong_audience = idToken("alice", 1h, "another-cluster");
  issuer_.setRefreshGrant("refresh-1", idToken("alice", 1h), "refresh-2");
  auto client = clientFor(kubeconfig(wrong_audience, "refresh-1"));
  ASSERT_TRUE(client) << client.error().describe();
  EXPECT_EQ(usernameOf(*client.value()), "oidc:alice");
  EXPECT_EQ(issuer_.tokenRequests().size(), 1u);
}

}  // namespace
}  // namespace kf::integration
