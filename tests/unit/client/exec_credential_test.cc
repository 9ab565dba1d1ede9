// The ExecCredential exchange: what a plugin is told and how its output is read.

#include "federation/client/exec_credential.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/client/exec_fixtures.h"

namespace kf {
namespace {

using namespace std::chrono_literals;
using test::execConfig;
using test::execOutput;
using test::kExecCertPem;
using test::kExecKeyPem;
using test::kOtherKeyPem;
using ::testing::HasSubstr;
using ::testing::Not;

std::string parseFailure(const std::string& output, const ExecConfig& config = execConfig()) {
  auto parsed = parseExecCredential(output, config);
  EXPECT_FALSE(parsed.has_value());
  return parsed.has_value() ? "" : parsed.error().message;
}

std::chrono::system_clock::time_point utc(int y, unsigned mo, unsigned d, int h, int mi, int s) {
  return std::chrono::sys_days(std::chrono::year(y) / mo / d) + std::chrono::hours(h) +
         std::chrono::minutes(mi) + std::chrono::seconds(s);
}

TEST(ExecCredentialTest, ReadsATokenAndItsExpiry) {
  auto parsed = parseExecCredential(
      execOutput({{"token", "t0k3n"}, {"expirationTimestamp", "2030-01-02T03:04:05Z"}}),
      execConfig());
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_EQ(parsed.value().token, "t0k3n");
  EXPECT_EQ(parsed.value().certificate, nullptr);
  ASSERT_TRUE(parsed.value().expiry.has_value());
  EXPECT_EQ(*parsed.value().expiry, utc(2030, 1, 2, 3, 4, 5));
}

TEST(ExecCredentialTest, ReadsAClientCertificateOfTheConfiguredVersion) {
  auto parsed = parseExecCredential(
      execOutput({{"clientCertificateData", kExecCertPem}, {"clientKeyData", kExecKeyPem}},
                 kExecApiV1Beta1),
      execConfig(kExecApiV1Beta1));
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_EQ(parsed.value().token, "");
  ASSERT_NE(parsed.value().certificate, nullptr);
  EXPECT_EQ(parsed.value().certificate->cert_pem, kExecCertPem);
  EXPECT_EQ(parsed.value().certificate->key_pem, kExecKeyPem);
  EXPECT_FALSE(parsed.value().expiry.has_value());
}

TEST(ExecCredentialTest, RefusesWhatIsNotACompleteCredentialInClientGosWords) {
  EXPECT_EQ(parseFailure(execOutput({{"token", "t"}}, kExecApiV1Beta1)),
            "exec plugin is configured to use API version client.authentication.k8s.io/v1, "
            "plugin returned version client.authentication.k8s.io/v1beta1");
  EXPECT_EQ(parseFailure(R"({"apiVersion":"client.authentication.k8s.io/v1",
                             "kind":"ExecCredential"})"),
            "exec plugin didn't return a status field");
  EXPECT_EQ(parseFailure(execOutput(Json::object())),
            "exec plugin didn't return a token or cert/key pair");
  EXPECT_EQ(parseFailure(execOutput({{"clientCertificateData", kExecCertPem}})),
            "exec plugin returned only certificate or key, not both");
  EXPECT_THAT(parseFailure(execOutput(
                  {{"clientCertificateData", kExecCertPem}, {"clientKeyData", kOtherKeyPem}})),
              HasSubstr("failed parsing client key/certificate: client certificate: the private "
                        "key does not belong to the certificate"));
  EXPECT_EQ(parseFailure(execOutput({{"token", "t"}, {"expirationTimestamp", "tomorrow"}})),
            "decoding stdout: status.expirationTimestamp is not an RFC 3339 time");
  EXPECT_EQ(parseFailure(R"({"kind":"ExecCredential","status":{"token":"t"}})"),
            "decoding stdout: Object 'apiVersion' is missing");
  EXPECT_EQ(parseFailure(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"Status"})"),
            "decoding stdout: kind \"Status\" is not ExecCredential");
}

TEST(ExecCredentialTest, NeverQuotesTheOutputWhenItIsNotJson) {
  const std::string message = parseFailure("token=s3cr3t-value\n");
  EXPECT_THAT(message, HasSubstr("decoding stdout: not JSON (syntax error at byte"));
  EXPECT_THAT(message, Not(HasSubstr("s3cr3t")));
}

TEST(ExecCredentialTest, TellsThePluginItIsNotInteractiveAndAboutTheClusterWhenAsked) {
  ExecConfig config = execConfig();
  EXPECT_EQ(Json::parse(execInfo(config, false)),
            Json::parse(R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1",
                            "spec":{"interactive":false}})"));
  config.cluster = {{"server", "https://api:6443"}, {"config", {{"audience", "prod"}}}};
  EXPECT_EQ(Json::parse(execInfo(config, false))["spec"],
            Json::parse(R"({"interactive":false, "cluster":{"server":"https://api:6443",
                            "config":{"audience":"prod"}}})"));
}

TEST(ExecCredentialTest, RunsPluginsWithoutATerminal) {
  ExecConfig config = execConfig();
  for (const char* mode : {"Never", "IfAvailable"}) {
    config.interactive_mode = mode;
    auto interactive = execInteractive(config);
    ASSERT_TRUE(interactive.has_value()) << mode;
    EXPECT_FALSE(interactive.value()) << mode;
  }
  config.interactive_mode = "Always";
  auto always = execInteractive(config);
  ASSERT_FALSE(always.has_value());
  EXPECT_THAT(always.error().message,
              HasSubstr("exec plugin cannot support interactive mode: standard input is not a "
                        "terminal"));
}

TEST(ExpirationTimestampTest, ReadsRfc3339TimesAsMetav1TimeWritesThem) {
  EXPECT_EQ(parseExpirationTimestamp("2024-02-29T23:59:59Z"), utc(2024, 2, 29, 23, 59, 59));
  EXPECT_EQ(parseExpirationTimestamp("2024-03-01T01:30:00+01:30"), utc(2024, 3, 1, 0, 0, 0));
  EXPECT_EQ(parseExpirationTimestamp("2024-03-01T00:00:00-02:00"), utc(2024, 3, 1, 2, 0, 0));
  EXPECT_EQ(parseExpirationTimestamp("2024-03-01T00:00:00.25Z"), utc(2024, 3, 1, 0, 0, 0) + 250ms);
  EXPECT_EQ(parseExpirationTimestamp("2024-03-01T00:00:00.1234567891Z"),
            utc(2024, 3, 1, 0, 0, 0) + std::chrono::nanoseconds(123456789));
}

TEST(ExpirationTimestampTest, RefusesWhatIsNotAnRfc3339Time) {
  for (const char* text :
       {"", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z",
        "2024-01-01 00:00:00Z", "2024-01-01T00:00:00", "2024-01-01T00:00:00.Z",
        "2024-01-01T00:00:00+0100", "2024-1-01T00:00:00Z", "2024-01-01T00:00:00Zjunk"}) {
    EXPECT_FALSE(parseExpirationTimestamp(text).has_value()) << text;
  }
}

}  // namespace
}  // namespace kf
