#include "federation/cluster/cluster_client.h"

#include <gtest/gtest.h>

#include "federation/client/base64.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using test::FakeApiServer;
using test::FakeClock;
using test::textResponse;

constexpr const char* kToken = "s3cret-token-value";
constexpr const char* kPem =
    "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n";
constexpr milliseconds kTimeout{3000};

core::KubeFedCluster cluster(Json spec_overrides = Json::object()) {
  Json spec = {{"apiEndpoint", "https://10.0.0.1:6443"},
               {"secretRef", {{"name", "member1-token"}}}};
  spec.update(spec_overrides);
  Json object = {{"apiVersion", "core.kubefed.io/v1beta1"},
                 {"kind", "KubeFedCluster"},
                 {"metadata", {{"name", "member1"}, {"namespace", "kube-federation-system"}}},
                 {"spec", spec}};
  auto parsed = core::KubeFedCluster::fromJson(object);
  EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().describe());
  return parsed.value();
}

Json secretWith(Json data) {
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata", {{"name", "member1-token"}}},
          {"data", std::move(data)}};
}

Json tokenSecret() { return secretWith({{"token", base64Encode(kToken)}}); }

// The error message of a build that must fail with kBadConfig.
std::string buildError(const core::KubeFedCluster& from,
                       const std::optional<Json>& secret = tokenSecret()) {
  auto built = buildClusterConfig(from, secret, kTimeout);
  EXPECT_FALSE(built);
  if (built) return "";
  EXPECT_EQ(built.error().reason, Reason::kBadConfig) << built.error().describe();
  EXPECT_EQ(built.error().message.find(kToken), std::string::npos) << "the token leaked";
  EXPECT_NE(built.error().message.find("KubeFedCluster \"kube-federation-system/member1\""),
            std::string::npos)
      << built.error().message;
  return built.error().message;
}

// Verifies a complete KubeFedCluster gives KubeFed's client settings.
TEST(ClusterClientTest, BuildsConfigFromClusterAndSecret) {
  auto built = buildClusterConfig(
      cluster({{"caBundle", base64Encode(kPem)}, {"proxyURL", "http://proxy:3128"}}), tokenSecret(),
      kTimeout);
  ASSERT_TRUE(built) << built.error().describe();
  const RestConfig& config = built.value();
  EXPECT_EQ(config.server, "https://10.0.0.1:6443");
  EXPECT_EQ(config.bearer_token, kToken);
  EXPECT_EQ(config.tls.ca_pem, kPem);
  EXPECT_EQ(config.proxy_url, "http://proxy:3128");
  EXPECT_EQ(config.qps, 20);
  EXPECT_EQ(config.burst, 30);
  EXPECT_EQ(config.request_timeout, kTimeout);
  EXPECT_EQ(config.connect_timeout, kTimeout);
  // Verification stays fully on unless the cluster disables part of it.
  EXPECT_FALSE(config.tls.insecure_skip_verify);
  EXPECT_TRUE(config.tls.verify_hostname);
  EXPECT_FALSE(config.tls.ignore_validity_period);
}

// Verifies apiEndpoint is read like client-go's DefaultServerURL: a bare host or host:port gets
// https, a path prefix is kept, IPv6 stays bracketed.
TEST(ClusterClientTest, ServerFromEndpoint) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"10.0.0.1:6443", "https://10.0.0.1:6443"},
      {"example.com", "https://example.com:443"},
      {"http://example.com", "http://example.com:80"},
      {"https://example.com:8443/prefix/", "https://example.com:8443/prefix"},
      {"https://[2001:db8::1]:6443", "https://[2001:db8::1]:6443"},
  };
  for (const auto& [endpoint, server] : cases) {
    auto built = buildClusterConfig(cluster({{"apiEndpoint", endpoint}}), tokenSecret(), kTimeout);
    ASSERT_TRUE(built) << endpoint << ": " << built.error().describe();
    EXPECT_EQ(built.value().server, server) << endpoint;
  }
}

// Verifies each disabledTLSValidations value relaxes only its own check.
TEST(ClusterClientTest, DisabledTlsValidations) {
  auto tls = [](std::vector<std::string> disabled) {
    TlsConfig config;
    applyDisabledTlsValidations(disabled, config);
    return config;
  };
  const TlsConfig all = tls({"*"});
  EXPECT_TRUE(all.insecure_skip_verify);

  const TlsConfig subject = tls({"SubjectName"});
  EXPECT_FALSE(subject.insecure_skip_verify);
  EXPECT_FALSE(subject.verify_hostname);
  EXPECT_FALSE(subject.ignore_validity_period);

  const TlsConfig validity = tls({"ValidityPeriod"});
  EXPECT_FALSE(validity.insecure_skip_verify);
  EXPECT_TRUE(validity.verify_hostname);
  EXPECT_TRUE(validity.ignore_validity_period);

  const TlsConfig both = tls({"SubjectName", "ValidityPeriod"});
  EXPECT_FALSE(both.insecure_skip_verify);
  EXPECT_FALSE(both.verify_hostname);
  EXPECT_TRUE(both.ignore_validity_period);

  const TlsConfig unknown = tls({"subjectname", "Everything"});
  EXPECT_FALSE(unknown.insecure_skip_verify);
  EXPECT_TRUE(unknown.verify_hostname);
  EXPECT_FALSE(unknown.ignore_validity_period);

  auto built = buildClusterConfig(cluster({{"disabledTLSValidations", {"SubjectName"}}}),
                                  tokenSecret(), kTimeout);
  ASSERT_TRUE(built);
  EXPECT_FALSE(built.value().tls.verify_hostname);
}

// Verifies every unusable input fails with a message that names the field and what to do.
TEST(ClusterClientTest, ErrorsNameTheProblem) {
  EXPECT_NE(buildError(cluster({{"apiEndpoint", ""}})).find("spec.apiEndpoint is empty"),
            std::string::npos);
  EXPECT_NE(buildError(cluster({{"apiEndpoint", "tcp://h:1"}})).find("spec.apiEndpoint"),
            std::string::npos);
  EXPECT_NE(buildError(cluster({{"apiEndpoint", "h:99999"}})).find("1..65535"), std::string::npos);
  EXPECT_NE(
      buildError(cluster({{"secretRef", {{"name", ""}}}})).find("spec.secretRef.name is empty"),
      std::string::npos);

  const std::string missing = buildError(cluster(), std::nullopt);
  EXPECT_NE(missing.find("Secret \"kube-federation-system/member1-token\""), std::string::npos)
      << missing;
  EXPECT_NE(missing.find("not found"), std::string::npos) << missing;

  EXPECT_NE(buildError(cluster(), secretWith({{"ca.crt", "eA=="}})).find("has no key \"token\""),
            std::string::npos);
  EXPECT_NE(buildError(cluster(), secretWith(nullptr)).find("has no key \"token\""),
            std::string::npos);
  EXPECT_NE(buildError(cluster(), secretWith({{"token", ""}})).find("is empty"), std::string::npos);
  EXPECT_NE(buildError(cluster(), secretWith({{"token", "%%%"}})).find("not valid base64"),
            std::string::npos);

  EXPECT_NE(
      buildError(cluster({{"caBundle", "not base64!"}})).find("spec.caBundle is not valid base64"),
      std::string::npos);
  EXPECT_NE(buildError(cluster({{"caBundle", base64Encode("plain text")}}))
                .find("spec.caBundle does not hold a PEM certificate"),
            std::string::npos);
}

class LoadClusterConfigTest : public ::testing::Test {
 protected:
  FakeClock clock_;
  FakeApiServer server_{clock_};
  std::shared_ptr<RestClient> host_ = server_.client(RetryPolicy{.max_attempts = 1});
};

// Verifies the Secret is read from the KubeFed namespace under spec.secretRef.name.
TEST_F(LoadClusterConfigTest, ReadsSecretFromKubeFedNamespace) {
  server_.respondNext(textResponse(200, tokenSecret().dump()));
  auto loaded = loadClusterConfig(*host_, "kube-federation-system", cluster(), kTimeout);
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_EQ(loaded.value().bearer_token, kToken);
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/api/v1/namespaces/kube-federation-system/secrets/member1-token");
}

// Verifies a missing Secret is reported as such, and a failed read keeps the host's error.
TEST_F(LoadClusterConfigTest, MissingSecretAndReadFailure) {
  server_.respondNext(
      textResponse(404, R"({"kind":"Status","reason":"NotFound","code":404,"message":"nope"})"));
  auto missing = loadClusterConfig(*host_, "kube-federation-system", cluster(), kTimeout);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().reason, Reason::kBadConfig);
  EXPECT_NE(missing.error().message.find("not found: create it"), std::string::npos);

  server_.respondNext(textResponse(403, R"({"kind":"Status","reason":"Forbidden","code":403})"));
  auto denied = loadClusterConfig(*host_, "kube-federation-system", cluster(), kTimeout);
  ASSERT_FALSE(denied);
  EXPECT_TRUE(isForbidden(denied.error()));
  EXPECT_NE(denied.error().message.find("reading Secret \"kube-federation-system/member1-token\""),
            std::string::npos)
      << denied.error().message;
}

// Verifies an empty endpoint or secret name fails without reading anything.
TEST_F(LoadClusterConfigTest, IncompleteSpecFailsWithoutReading) {
  EXPECT_FALSE(loadClusterConfig(*host_, "kube-federation-system", cluster({{"apiEndpoint", ""}}),
                                 kTimeout));
  EXPECT_FALSE(loadClusterConfig(*host_, "kube-federation-system",
                                 cluster({{"secretRef", {{"name", ""}}}}), kTimeout));
  EXPECT_TRUE(server_.requests().empty());
}

// Verifies the probe client makes one attempt and the shared client keeps default timeouts.
TEST(MemberClientsTest, ProbeAndSharedClients) {
  FakeClock clock;
  auto built = buildClusterConfig(cluster(), tokenSecret(), kTimeout);
  ASSERT_TRUE(built);
  auto clients = makeMemberClients(built.value(), clock);
  ASSERT_TRUE(clients) << clients.error().describe();
  EXPECT_EQ(clients.value().probe->config().request_timeout, kTimeout);
  EXPECT_EQ(clients.value().client->config().request_timeout, RestConfig{}.request_timeout);
  EXPECT_EQ(clients.value().client->config().bearer_token, kToken);
}

// Verifies a CA bundle whose PEM does not parse fails when the clients are made.
TEST(MemberClientsTest, UnparsableCaFailsClearly) {
  FakeClock clock;
  auto built =
      buildClusterConfig(cluster({{"caBundle", base64Encode(kPem)}}), tokenSecret(), kTimeout);
  ASSERT_TRUE(built);
  auto clients = makeMemberClients(built.value(), clock);
  ASSERT_FALSE(clients);
  EXPECT_EQ(clients.error().reason, Reason::kBadConfig);
}

}  // namespace
}  // namespace kf
