// Authentication and TLS verification against a real kube-apiserver.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "federation/client/resource_client.h"
#include "tests/integration/local_clusters.h"

namespace kf::integration {
namespace {

Result<ObjectList> listNamespaces(const RestConfig& config) {
  KF_TRY(client, RestClient::create(config, realClock()));
  return ResourceClient(*client, {"", "v1", "namespaces", false}).list({});
}

TEST(TlsTest, ClientCertificateAuthenticates) {
  RestConfig config = LocalClusters::get().config("host");
  ASSERT_FALSE(config.tls.client_cert_pem.empty());
  auto listed = listNamespaces(config);
  ASSERT_TRUE(listed) << listed.error().describe();
  EXPECT_FALSE(listed.value().items.empty());
}

TEST(TlsTest, BearerTokenAuthenticates) {
  RestConfig config = LocalClusters::get().config("host");
  config.tls.client_cert_pem.clear();
  config.tls.client_key_pem.clear();
  config.bearer_token = LocalClusters::get().env("KF_HOST_TOKEN");
  auto listed = listNamespaces(config);
  ASSERT_TRUE(listed) << listed.error().describe();
}

TEST(TlsTest, WrongBearerTokenIsUnauthorized) {
  RestConfig config = LocalClusters::get().config("host");
  config.tls.client_cert_pem.clear();
  config.tls.client_key_pem.clear();
  config.bearer_token = "not-a-valid-token";
  auto listed = listNamespaces(config);
  ASSERT_FALSE(listed);
  EXPECT_TRUE(isUnauthorized(listed.error())) << listed.error().describe();
}

TEST(TlsTest, WrongCertificateAuthorityFailsWithClearError) {
  RestConfig config = LocalClusters::get().config("host");
  // A certificate that did not sign the server's: the client certificate itself.
  config.tls.ca_pem = config.tls.client_cert_pem;
  auto listed = listNamespaces(config);
  ASSERT_FALSE(listed);
  EXPECT_EQ(listed.error().reason, Reason::kTlsVerification) << listed.error().describe();
  EXPECT_NE(listed.error().message.find("did not verify"), std::string::npos);
  EXPECT_NE(listed.error().message.find("127.0.0.1"), std::string::npos);
}

TEST(TlsTest, InsecureSkipVerifyConnectsWithoutCa) {
  RestConfig config = LocalClusters::get().config("host");
  config.tls.ca_pem.clear();
  config.tls.insecure_skip_verify = true;
  auto listed = listNamespaces(config);
  ASSERT_TRUE(listed) << listed.error().describe();
}

// The local API servers' certificates name "localhost". Names compare without case in TLS, and
// Go's client neither sends nor checks the trailing dot of a fully qualified name (Go servers
// refuse a ClientHello whose name ends in one); a scheme is read in any case.
TEST(TlsTest, ServerNamesMatchTheCertificateWithoutCaseOrTrailingDot) {
  const RestConfig base = LocalClusters::get().config("host");
  const std::string loopback = "https://127.0.0.1:";
  ASSERT_EQ(base.server.rfind(loopback, 0), 0u) << base.server;
  const std::string port = base.server.substr(loopback.size());
  for (const std::string& server : {"https://LOCALHOST:" + port, "HTTPS://LocalHost:" + port,
                                    "https://user@localhost:" + port}) {
    RestConfig config = base;
    config.server = server;
    auto listed = listNamespaces(config);
    EXPECT_TRUE(listed) << server << ": " << listed.error().describe();
  }
  for (const std::string name : {"localhost.", "LOCALHOST"}) {
    RestConfig config = base;
    config.tls.server_name = name;
    auto listed = listNamespaces(config);
    EXPECT_TRUE(listed) << "server name " << name << ": " << listed.error().describe();
  }
  RestConfig other_name = base;
  other_name.tls.server_name = "localhost.example";
  auto refused = listNamespaces(other_name);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().reason, Reason::kTlsVerification) << refused.error().describe();
}

TEST(TlsTest, UnreachableServerIsConnectionFailure) {
  RestConfig config = LocalClusters::get().config("host");
  config.server = "https://127.0.0.1:1";
  auto listed = listNamespaces(config);
  ASSERT_FALSE(listed);
  EXPECT_EQ(listed.error().reason, Reason::kConnectionFailed) << listed.error().describe();
}

}  // namespace
}  // namespace kf::integration
