// disabledTLSValidations end to end: a KubeFedCluster's client against a local HTTPS peer whose
// certificate is wrong in one way at a time.

#include <gtest/gtest.h>

#include "federation/client/base64.h"
#include "federation/cluster/cluster_client.h"
#include "tests/support/fake_clock.h"
#include "tests/unit/cluster/tls_test_server.h"

namespace kf {
namespace {

using test::CertificateSpec;
using test::Credential;
using test::makeCa;
using test::makeCredential;
using test::TlsTestServer;

constexpr long kDay = 24 * 3600;

class TlsValidationTest : public ::testing::Test {
 protected:
  // GET /healthz through the probe client of a cluster served by `server_cert`, trusting
  // `trusted_ca` (nullptr: no caBundle, the system store).
  Result<std::string> probe(const Credential& server_cert, const Credential* trusted_ca,
                            std::vector<std::string> disabled = {}) {
    TlsTestServer server(server_cert);
    Json spec = {{"apiEndpoint", "https://127.0.0.1:" + std::to_string(server.port())},
                 {"secretRef", {{"name", "token"}}}};
    if (trusted_ca != nullptr) spec["caBundle"] = base64Encode(trusted_ca->cert_pem);
    if (!disabled.empty()) spec["disabledTLSValidations"] = disabled;
    auto cluster = core::KubeFedCluster::fromJson(
        {{"metadata", {{"name", "member"}, {"namespace", "kf"}}}, {"spec", spec}});
    EXPECT_TRUE(cluster);
    const Json secret = {{"data", {{"token", base64Encode("t")}}}};
    KF_TRY(config, buildClusterConfig(cluster.value(), secret, std::chrono::seconds(10)));
    KF_TRY(clients, makeMemberClients(config, clock_));
    KF_TRY(response, clients.probe->send({.path = "/healthz"}));
    return response.body;
  }

  Credential serverCert(const CertificateSpec& spec) { return makeCredential(spec, &ca_); }

  test::FakeClock clock_;
  Credential ca_ = makeCa("test-ca");
  Credential other_ca_ = makeCa("other-ca");
  Credential good_ = serverCert({.common_name = "server", .subject_alt_names = "IP:127.0.0.1"});
  Credential wrong_name_ =
      serverCert({.common_name = "server", .subject_alt_names = "DNS:elsewhere.example"});
  Credential expired_ = serverCert({.common_name = "server",
                                    .subject_alt_names = "IP:127.0.0.1",
                                    .not_before_offset = -2 * kDay,
                                    .not_after_offset = -kDay});
  Credential not_yet_valid_ = serverCert({.common_name = "server",
                                          .subject_alt_names = "IP:127.0.0.1",
                                          .not_before_offset = kDay,
                                          .not_after_offset = 2 * kDay});
  Credential expired_wrong_name_ = serverCert({.common_name = "server",
                                               .subject_alt_names = "DNS:elsewhere.example",
                                               .not_before_offset = -2 * kDay,
                                               .not_after_offset = -kDay});
};

void expectVerificationFailure(const Result<std::string>& result, const std::string& detail) {
  ASSERT_FALSE(result) << "connected: " << result.value();
  EXPECT_EQ(result.error().reason, Reason::kTlsVerification) << result.error().describe();
  EXPECT_NE(result.error().message.find(detail), std::string::npos) << result.error().message;
}

// Verifies the baseline: a certificate signed by the caBundle and naming 127.0.0.1 is accepted.
TEST_F(TlsValidationTest, ValidCertificateIsAccepted) {
  auto result = probe(good_, &ca_);
  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result.value(), "ok");
}

// Verifies verification is on by default: a foreign CA and the system store both reject.
TEST_F(TlsValidationTest, UntrustedCertificateIsRejected) {
  expectVerificationFailure(probe(good_, &other_ca_), "did not verify");
  expectVerificationFailure(probe(good_, nullptr), "did not verify");
}

// Verifies "*" skips every check.
TEST_F(TlsValidationTest, StarSkipsAllVerification) {
  EXPECT_TRUE(probe(expired_wrong_name_, &other_ca_, {"*"}));
  EXPECT_TRUE(probe(good_, nullptr, {"*"}));
}

// Verifies SubjectName skips the name check only: the chain must still verify and the
// certificate must still be within its validity period.
TEST_F(TlsValidationTest, SubjectNameSkipsOnlyTheNameCheck) {
  const auto strict = probe(wrong_name_, &ca_);
  expectVerificationFailure(strict, "IP address mismatch");
  expectVerificationFailure(strict, "not issued for 127.0.0.1");
  auto relaxed = probe(wrong_name_, &ca_, {"SubjectName"});
  EXPECT_TRUE(relaxed) << relaxed.error().describe();
  expectVerificationFailure(probe(wrong_name_, &other_ca_, {"SubjectName"}), "did not verify");
  expectVerificationFailure(probe(expired_, &ca_, {"SubjectName"}), "expired");
}

// Verifies ValidityPeriod skips the time check only: expired and not-yet-valid certificates are
// accepted, a wrong name or a foreign CA are not.
TEST_F(TlsValidationTest, ValidityPeriodSkipsOnlyTheTimeCheck) {
  expectVerificationFailure(probe(expired_, &ca_), "certificate has expired");
  expectVerificationFailure(probe(not_yet_valid_, &ca_), "not yet valid");
  auto expired = probe(expired_, &ca_, {"ValidityPeriod"});
  EXPECT_TRUE(expired) << expired.error().describe();
  auto early = probe(not_yet_valid_, &ca_, {"ValidityPeriod"});
  EXPECT_TRUE(early) << early.error().describe();
  expectVerificationFailure(probe(expired_wrong_name_, &ca_, {"ValidityPeriod"}), "mismatch");
  expectVerificationFailure(probe(expired_, &other_ca_, {"ValidityPeriod"}), "did not verify");
}

// Verifies both relaxations together accept a certificate that is wrong in both ways.
TEST_F(TlsValidationTest, SubjectNameAndValidityPeriodTogether) {
  auto result = probe(expired_wrong_name_, &ca_, {"SubjectName", "ValidityPeriod"});
  EXPECT_TRUE(result) << result.error().describe();
}

}  // namespace
}  // namespace kf
