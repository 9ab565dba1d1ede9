// Kubeconfig users with an oidc auth-provider, as client-go's provider serves them: the id-token
// sent while it is valid, refreshed at a fake OpenID Connect issuer (HTTPS on 127.0.0.1) when it
// expires or the server rejects it, the new tokens written back into the kubeconfig, and clear
// errors when that is impossible.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "federation/client/base64.h"
#include "federation/client/credentials.h"
#include "federation/client/kubeconfig.h"
#include "federation/client/rest_client.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"
#include "tests/support/fake_oidc_issuer.h"
#include "tests/support/temp_dir.h"

namespace kf {
namespace {

using namespace std::chrono_literals;
using test::FakeOidcIssuer;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kClientSecret = "s3cr3t/+ x";

std::string kubeconfigText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class OidcAuthTest : public ::testing::Test {
 protected:
  OidcAuthTest() { issuer_.setClient("kubefed", kClientSecret); }

  // An id-token of the issuer for alice, expiring `lifetime` from the fake clock's now.
  std::string idToken(std::chrono::seconds lifetime, const std::string& subject = "alice") {
    const auto exp = std::chrono::duration_cast<std::chrono::seconds>(
        (clock_.wallNow() + lifetime).time_since_epoch());
    return issuer_.idToken({{"sub", subject}, {"aud", "kubefed"}, {"exp", exp.count()}});
  }

  // A kubeconfig (mode 0600) whose context uses user "alice" with this oidc config; another user
  // holds a quoted number, which must stay a string when the file is rewritten.
  void writeKubeconfig(const std::string& provider_config) {
    dir_.write("config",
               "apiVersion: v1\n"
               "kind: Config\n"
               "current-context: ctx\n"
               "clusters:\n"
               "- name: c\n"
               "  cluster: {server: \"https://127.0.0.1:6443\"}\n"
               "users:\n"
               "- name: other\n"
               "  user: {token: \"0123\"}\n"
               "- name: alice\n"
               "  user:\n"
               "    auth-provider:\n"
               "      name: oidc\n"
               "      config:\n" +
                   provider_config +
                   "contexts:\n"
                   "- name: ctx\n"
                   "  context: {cluster: c, user: alice}\n");
    ::chmod(kubeconfigPath().c_str(), 0600);
  }

  // The usual provider config: this issuer, its CA, the client, and the given tokens.
  std::string providerConfig(const std::string& id_token, const std::string& refresh_token) {
    std::string config = "        idp-issuer-url: " + issuer_.url() +
                         "\n"
                         "        idp-certificate-authority-data: " +
                         base64Encode(issuer_.caPem()) +
                         "\n"
                         "        client-id: kubefed\n"
                         "        client-secret: \"" +
                         kClientSecret +
                         "\"\n"
                         "        extra-scopes: groups,email\n";
    if (!id_token.empty()) config += "        id-token: " + id_token + "\n";
    if (!refresh_token.empty()) config += "        refresh-token: " + refresh_token + "\n";
    return config;
  }

  std::string kubeconfigPath() const { return dir_.file("config"); }

  Result<RestConfig> load() {
    return loadRestConfig(KubeconfigOptions{kubeconfigPath(), "", "", ""});
  }

  CredentialsPtr credentials() {
    auto config = load();
    EXPECT_TRUE(config.has_value()) << config.error().message;
    if (!config) return nullptr;
    return credentialsFor(config.value(), clock_);
  }

  std::string authorization(Credentials& credentials) {
    auto got = credentials.forRequest();
    EXPECT_TRUE(got.has_value()) << got.error().message;
    return got ? got.value().authorization : "";
  }

  // The auth-provider config of alice as the kubeconfig file holds it now (read with the YAML
  // library, not with the reader under test).
  std::map<std::string, std::string> savedConfig() {
    std::map<std::string, std::string> config;
    for (const YAML::Node& user : YAML::LoadFile(kubeconfigPath())["users"]) {
      if (user["name"].as<std::string>() != "alice") continue;
      for (const auto& entry : user["user"]["auth-provider"]["config"]) {
        config[entry.first.as<std::string>()] = entry.second.as<std::string>();
      }
    }
    return config;
  }

  test::FakeClock clock_;
  test::TempDir dir_;
  FakeOidcIssuer issuer_;
};

TEST_F(OidcAuthTest, SendsAValidIdTokenWithoutAskingTheIssuer) {
  const std::string token = idToken(1h);
  writeKubeconfig(providerConfig(token, "refresh-1"));
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  EXPECT_EQ(authorization(*creds), "Bearer " + token);
  EXPECT_EQ(authorization(*creds), "Bearer " + token);
  EXPECT_TRUE(issuer_.requests().empty());
}

TEST_F(OidcAuthTest, RefreshesAnExpiredIdTokenAndSavesTheNewTokensInTheKubeconfig) {
  writeKubeconfig(providerConfig(idToken(-1min), "refresh-1"));
  const std::string fresh = idToken(1h);
  issuer_.setRefreshGrant("refresh-1", fresh, "refresh-2");
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  EXPECT_EQ(authorization(*creds), "Bearer " + fresh);
  EXPECT_EQ(authorization(*creds), "Bearer " + fresh);  // kept, not refreshed again

  // Discovery under the issuer's path, then the refresh-token grant at the endpoint it named,
  // with the client's id and secret (form-escaped) in basic authentication.
  const auto requests = issuer_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/realms/kubefed/.well-known/openid-configuration");
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[1].target, "/realms/kubefed/token");
  EXPECT_EQ(requests[1].headers.at("content-type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(requests[1].headers.at("authorization"),
            "Basic " + base64Encode("kubefed:s3cr3t%2F%2B+x"));
  EXPECT_EQ(requests[1].body, "grant_type=refresh_token&refresh_token=refresh-1");

  const auto saved = savedConfig();
  EXPECT_EQ(saved.at("id-token"), fresh);
  EXPECT_EQ(saved.at("refresh-token"), "refresh-2");
  EXPECT_EQ(saved.at("client-secret"), kClientSecret);
  EXPECT_EQ(saved.at("extra-scopes"), "groups,email");
  const std::string text = kubeconfigText(kubeconfigPath());
  EXPECT_THAT(text, HasSubstr("token: \"0123\"")) << text;
  struct stat file_stat {};
  ASSERT_EQ(::stat(kubeconfigPath().c_str(), &file_stat), 0);
  EXPECT_EQ(file_stat.st_mode & 0777, 0600u);
  EXPECT_FALSE(std::filesystem::exists(kubeconfigPath() + ".lock"));
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
    files.push_back(entry.path().string());
  }
  EXPECT_THAT(files, ElementsAre(kubeconfigPath())) << "no temporary file left behind";
}

TEST_F(OidcAuthTest, RefreshesTenSecondsBeforeTheIdTokenExpires) {
  const std::string first = idToken(60s);
  writeKubeconfig(providerConfig(first, "refresh-1"));
  const std::string second = idToken(1h);
  issuer_.setRefreshGrant("refresh-1", second);
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  EXPECT_EQ(authorization(*creds), "Bearer " + first);
  clock_.advance(49s);  // 11 s left
  EXPECT_EQ(authorization(*creds), "Bearer " + first);
  EXPECT_TRUE(issuer_.tokenRequests().empty());
  clock_.advance(2s);  // 9 s left
  EXPECT_EQ(authorization(*creds), "Bearer " + second);
  EXPECT_EQ(issuer_.tokenRequests().size(), 1u);
  // The issuer sent no new refresh-token: the old one stays.
  EXPECT_EQ(savedConfig().at("refresh-token"), "refresh-1");
}

TEST_F(OidcAuthTest, TreatsAnIdTokenWithoutExpiryAsExpired) {
  const std::string no_exp = issuer_.idToken({{"sub", "alice"}, {"aud", "kubefed"}});
  writeKubeconfig(providerConfig(no_exp, "refresh-1"));
  const std::string fresh = idToken(1h);
  issuer_.setRefreshGrant("refresh-1", fresh);
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  EXPECT_EQ(authorization(*creds), "Bearer " + fresh);
}

TEST_F(OidcAuthTest, SendsTheClientCredentialsInTheFormWhenTheEndpointRefusesBasicAuth) {
  issuer_.setClient("kubefed", kClientSecret, FakeOidcIssuer::ClientAuth::kBodyOnly);
  writeKubeconfig(providerConfig(idToken(30s), "refresh-1"));
  const std::string second = idToken(1h);
  issuer_.setRefreshGrant("refresh-1", second, "refresh-2");
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  clock_.advance(25s);
  EXPECT_EQ(authorization(*creds), "Bearer " + second);
  auto tokens = issuer_.tokenRequests();
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].headers.count("authorization"), 1u);
  EXPECT_EQ(tokens[1].headers.count("authorization"), 0u);
  EXPECT_EQ(FakeOidcIssuer::formFields(tokens[1].body),
            (std::map<std::string, std::string>{{"grant_type", "refresh_token"},
                                                {"refresh_token", "refresh-1"},
                                                {"client_id", "kubefed"},
                                                {"client_secret", kClientSecret}}));

  // The next refresh goes to the form at once.
  const std::string third = idToken(2h);
  issuer_.setRefreshGrant("refresh-2", third);
  clock_.advance(1h);
  EXPECT_EQ(authorization(*creds), "Bearer " + third);
  tokens = issuer_.tokenRequests();
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[2].headers.count("authorization"), 0u);
}

TEST_F(OidcAuthTest, ExplainsARefusedRefreshAndWhatToDo) {
  const std::string expired = idToken(-1s);
  writeKubeconfig(providerConfig(expired, "revoked-refresh"));
  issuer_.setRefreshGrant("another-refresh", idToken(1h));
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  auto failed = creds->forRequest();
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().reason, Reason::kBadConfig);
  const std::string& message = failed.error().message;
  EXPECT_THAT(message, HasSubstr("kubeconfig \"" + kubeconfigPath() +
                                 "\": users[name=\"alice\"].user.auth-provider: refreshing the "
                                 "id-token: failed to refresh token: oauth2: \"invalid_grant\" "
                                 "\"Token is not active\"; the refresh-token may have expired or "
                                 "been revoked: log in to " +
                                 issuer_.url() + " again"));
  EXPECT_THAT(message, HasSubstr("kubectl config set-credentials alice --auth-provider=oidc"));
  EXPECT_THAT(message, Not(HasSubstr("revoked-refresh")));
  EXPECT_THAT(message, Not(HasSubstr(expired)));
  EXPECT_THAT(message, Not(HasSubstr("s3cr3t")));
  EXPECT_EQ(savedConfig().at("id-token"), expired) << "nothing written";
}

TEST_F(OidcAuthTest, ExplainsThatAnExpiredIdTokenCannotBeRenewedWithoutARefreshToken) {
  writeKubeconfig(providerConfig(idToken(-1min), ""));
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  auto failed = creds->forRequest();
  ASSERT_FALSE(failed.has_value());
  EXPECT_THAT(failed.error().message,
              HasSubstr("users[name=\"alice\"].user.auth-provider: No valid id-token, and cannot "
                        "refresh without refresh-token: log in to " +
                        issuer_.url() + " again"));
  EXPECT_TRUE(issuer_.requests().empty());
}

TEST_F(OidcAuthTest, ExplainsAnIdTokenThatIsNotAJwt) {
  writeKubeconfig(providerConfig("not-a-jwt", "refresh-1"));
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  auto failed = creds->forRequest();
  ASSERT_FALSE(failed.has_value());
  EXPECT_THAT(failed.error().message,
              HasSubstr("users[name=\"alice\"].user.auth-provider: id-token: the id-token is not "
                        "a valid JWT: expected three parts separated by dots"));
  EXPECT_THAT(failed.error().message, Not(HasSubstr("not-a-jwt")));
}

TEST_F(OidcAuthTest, ExplainsARefreshAnswerWithoutAnIdToken) {
  writeKubeconfig(providerConfig(idToken(-1min), "refresh-1"));
  issuer_.setRefreshGrant("refresh-1", "");
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  auto failed = creds->forRequest();
  ASSERT_FALSE(failed.has_value());
  EXPECT_THAT(failed.error().message,
              HasSubstr("token response did not contain an id_token, either the scope "
                        "\"openid\" wasn't requested upon login"));
}

TEST_F(OidcAuthTest, ExplainsAFailedDiscovery) {
  writeKubeconfig(providerConfig(idToken(-1min), "refresh-1"));
  issuer_.breakDiscovery(404, "<html>no such realm</html>");
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  auto failed = creds->forRequest();
  ASSERT_FALSE(failed.has_value());
  EXPECT_THAT(failed.error().message,
              HasSubstr("oidc: failed to query metadata endpoint " + issuer_.url() +
                        "/.well-known/openid-configuration: HTTP 404 \"<html>no such "
                        "realm</html>\""));
}

TEST_F(OidcAuthTest, VerifiesTheIssuerAgainstTheSystemTrustStoreWithoutACertificateAuthority) {
  const std::string config = providerConfig(idToken(-1min), "refresh-1");
  std::string without_ca;
  std::istringstream lines(config);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("idp-certificate-authority-data") == std::string::npos) {
      without_ca += line + "\n";
    }
  }
  writeKubeconfig(without_ca);
  issuer_.setRefreshGrant("refresh-1", idToken(1h));
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  auto failed = creds->forRequest();
  ASSERT_FALSE(failed.has_value());
  EXPECT_THAT(failed.error().message, HasSubstr("the server certificate did not verify"));
  EXPECT_THAT(failed.error().message,
              HasSubstr("the issuer's CA goes in idp-certificate-authority or "
                        "idp-certificate-authority-data"));
  EXPECT_TRUE(issuer_.requests().empty()) << "nothing was sent to an unverified issuer";
}

TEST_F(OidcAuthTest, ReadsTheIssuerCertificateAuthorityFromAFile) {
  dir_.write("issuer-ca.pem", issuer_.caPem());
  writeKubeconfig("        idp-issuer-url: " + issuer_.url() +
                  "/\n"  // a trailing slash, as some issuers are written
                  "        idp-certificate-authority: " +
                  dir_.file("issuer-ca.pem") +
                  "\n"
                  "        client-id: kubefed\n"
                  "        client-secret: \"" +
                  kClientSecret + "\"\n        refresh-token: refresh-1\n");
  const std::string fresh = idToken(1h);
  issuer_.setRefreshGrant("refresh-1", fresh);
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  EXPECT_EQ(authorization(*creds), "Bearer " + fresh);  // no id-token at all: refreshed
}

TEST_F(OidcAuthTest, KeepsUsingRefreshedTokensWhenTheKubeconfigIsLocked) {
  writeKubeconfig(providerConfig(idToken(-1min), "refresh-1"));
  const std::string before = kubeconfigText(kubeconfigPath());
  dir_.write("config.lock", "");  // kubectl is writing it
  const std::string fresh = idToken(1h);
  issuer_.setRefreshGrant("refresh-1", fresh, "refresh-2");
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  EXPECT_EQ(authorization(*creds), "Bearer " + fresh);
  EXPECT_EQ(kubeconfigText(kubeconfigPath()), before);
  EXPECT_TRUE(std::filesystem::exists(kubeconfigPath() + ".lock")) << "not ours to remove";
}

TEST_F(OidcAuthTest, RefreshesOnceWhenTheServerRejectsTheIdToken) {
  const std::string rejected = idToken(1h);
  writeKubeconfig(providerConfig(rejected, "refresh-1"));
  const std::string fresh = idToken(2h);
  issuer_.setRefreshGrant("refresh-1", fresh, "refresh-2");
  auto config = load();
  ASSERT_TRUE(config.has_value()) << config.error().message;
  test::FakeApiServer server(clock_);
  RestClient client(config.value(), server.transport(), clock_, RetryPolicy{.max_attempts = 1});

  server.failNext({}, 401, "Unauthorized");
  auto answered = client.send({.path = "/healthz"});
  ASSERT_TRUE(answered.has_value()) << answered.error().describe();
  auto sent = server.requests();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].headers.at("Authorization"), "Bearer " + rejected);
  EXPECT_EQ(sent[1].headers.at("Authorization"), "Bearer " + fresh);
  EXPECT_EQ(savedConfig().at("id-token"), fresh);

  // A server that rejects the fresh token too does not get the issuer asked again.
  server.failNext({}, 401, "Unauthorized");
  auto refused = client.send({.path = "/healthz"});
  ASSERT_FALSE(refused.has_value());
  EXPECT_TRUE(isUnauthorized(refused.error()));
  EXPECT_EQ(issuer_.tokenRequests().size(), 1u);
}

TEST_F(OidcAuthTest, ClientsOfOneKubeconfigUserShareOneRefresh) {
  writeKubeconfig(providerConfig(idToken(-1min), "refresh-1"));
  const std::string fresh = idToken(1h);
  // A rotating issuer: refresh-1 works once.
  issuer_.setRefreshGrant("refresh-1", fresh, "refresh-2");
  auto first = credentials();
  auto second = credentials();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(authorization(*first), "Bearer " + fresh);
  EXPECT_EQ(authorization(*second), "Bearer " + fresh);
  EXPECT_EQ(issuer_.tokenRequests().size(), 1u);
}

TEST_F(OidcAuthTest, ATokenOrBasicAuthenticationWinsOverTheAuthProvider) {
  writeKubeconfig(providerConfig(idToken(-1min), "refresh-1") + "    token: static-token\n");
  auto creds = credentials();
  ASSERT_NE(creds, nullptr);
  EXPECT_EQ(authorization(*creds), "Bearer static-token");
  EXPECT_TRUE(issuer_.requests().empty());
}

}  // namespace
}  // namespace kf
