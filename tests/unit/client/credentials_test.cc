// What authenticates each request: precedence of the methods, their headers, and renewal after
// the server rejected them.

#include "federation/client/credentials.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "federation/client/impersonation.h"
#include "tests/support/fake_clock.h"
#include "tests/unit/client/exec_fixtures.h"

namespace kf {
namespace {

using namespace std::chrono_literals;
using test::execConfig;
using test::execOutput;
using ::testing::ElementsAre;
using ::testing::Pair;

// A token file of the test's own, removed afterwards.
class TokenFileOnDisk {
 public:
  TokenFileOnDisk()
      : path_(std::filesystem::temp_directory_path() /
              ("credentials_test_token_" + std::to_string(::getpid()))) {}
  ~TokenFileOnDisk() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  void write(const std::string& contents) const { std::ofstream(path_) << contents; }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

class CredentialsTest : public ::testing::Test {
 protected:
  RequestCredentials request(Credentials& credentials) {
    auto got = credentials.forRequest();
    EXPECT_TRUE(got.has_value()) << got.error().message;
    return got.has_value() ? got.value() : RequestCredentials{};
  }

  std::shared_ptr<ExecPlugin> plugin() {
    return std::make_shared<ExecPlugin>(execConfig(), runner_, clock_);
  }

  test::FakeClock clock_;
  std::shared_ptr<test::FakePluginRunner> runner_ = std::make_shared<test::FakePluginRunner>();
};

TEST_F(CredentialsTest, SendsTheInlineTokenAsBearer) {
  RestConfig config;
  config.bearer_token = "t0k3n";
  auto credentials = credentialsFor(config, clock_);
  EXPECT_EQ(request(*credentials).authorization, "Bearer t0k3n");
  EXPECT_FALSE(credentials->renewAfterRejection(request(*credentials)));
}

TEST_F(CredentialsTest, SendsBasicAuthentication) {
  RestConfig config;
  config.username = "admin";
  config.password = "hunter2";
  auto credentials = credentialsFor(config, clock_);
  EXPECT_EQ(request(*credentials).authorization, "Basic YWRtaW46aHVudGVyMg==");
}

TEST_F(CredentialsTest, ReReadsTheTokenFileEveryMinuteAndAfterARejection) {
  TokenFileOnDisk file;
  file.write("first\n");
  RestConfig config;
  config.bearer_token = "inline";
  config.bearer_token_file = file.path();
  auto credentials = credentialsFor(config, clock_);
  EXPECT_EQ(request(*credentials).authorization, "Bearer first");  // the file wins
  file.write("second\n");
  clock_.advance(59s);
  EXPECT_EQ(request(*credentials).authorization, "Bearer first");
  clock_.advance(1s);
  EXPECT_EQ(request(*credentials).authorization, "Bearer second");

  file.write("third");
  const RequestCredentials rejected = request(*credentials);
  EXPECT_TRUE(credentials->renewAfterRejection(rejected));
  EXPECT_EQ(request(*credentials).authorization, "Bearer third");
  EXPECT_FALSE(credentials->renewAfterRejection(request(*credentials)));

  // A file that disappeared keeps the last token read.
  std::filesystem::remove(file.path());
  clock_.advance(2min);
  EXPECT_EQ(request(*credentials).authorization, "Bearer third");
}

TEST_F(CredentialsTest, AddsImpersonationHeadersToAnyMethod) {
  RestConfig config;
  config.bearer_token = "t";
  config.impersonate = {"jane", "42", {"dev", "ops"}, {{"scopes.io/x y", {"a", "b"}}}};
  auto credentials = credentialsFor(config, clock_);
  EXPECT_THAT(request(*credentials).impersonation,
              ElementsAre(Pair("Impersonate-User", "jane"), Pair("Impersonate-Uid", "42"),
                          Pair("Impersonate-Group", "dev"), Pair("Impersonate-Group", "ops"),
                          Pair("Impersonate-Extra-scopes.io%2Fx%20y", "a"),
                          Pair("Impersonate-Extra-scopes.io%2Fx%20y", "b")));
}

TEST(ImpersonationTest, EscapesExtraKeysAsClientGoDoes) {
  EXPECT_EQ(escapeExtraKey("reason"), "reason");
  EXPECT_EQ(escapeExtraKey("example.com/key~1_2"), "example.com%2Fkey~1_2");
  EXPECT_EQ(escapeExtraKey("100%"), "100%25");
  EXPECT_EQ(escapeExtraKey("ключ"), "%D0%BA%D0%BB%D1%8E%D1%87");
  EXPECT_TRUE(impersonationHeaders(Impersonation{}).empty());
}

TEST_F(CredentialsTest, UsesTheExecPluginsTokenOrCertificate) {
  RestConfig config;
  config.exec = execConfig();
  auto credentials = credentialsFor(config, clock_, plugin());
  runner_->enqueueOutput(execOutput({{"token", "from-plugin"}}));
  const RequestCredentials with_token = request(*credentials);
  EXPECT_EQ(with_token.authorization, "Bearer from-plugin");
  EXPECT_EQ(with_token.client_certificate, nullptr);

  runner_->enqueueOutput(execOutput(
      {{"clientCertificateData", test::kExecCertPem}, {"clientKeyData", test::kExecKeyPem}}));
  EXPECT_TRUE(credentials->renewAfterRejection(with_token));
  const RequestCredentials with_certificate = request(*credentials);
  EXPECT_EQ(with_certificate.authorization, "");
  ASSERT_NE(with_certificate.client_certificate, nullptr);
  EXPECT_EQ(with_certificate.client_certificate->cert_pem, test::kExecCertPem);
}

TEST_F(CredentialsTest, IgnoresTheExecPluginWhenTheUserHasCredentialsOfItsOwn) {
  for (const auto& own : {std::pair<std::string, std::string>{"token", "t"},
                          {"basic", "admin"},
                          {"certificate", "PEM"}}) {
    RestConfig config;
    config.exec = execConfig();
    if (own.first == "token") config.bearer_token = own.second;
    if (own.first == "basic") config.username = own.second;
    if (own.first == "certificate") config.tls.client_cert_pem = own.second;
    auto credentials = credentialsFor(config, clock_, plugin());
    EXPECT_TRUE(credentials->forRequest().has_value()) << own.first;
  }
  EXPECT_TRUE(runner_->runs().empty());
}

TEST_F(CredentialsTest, FailsTheRequestWhenThePluginFails) {
  RestConfig config;
  config.exec = execConfig();
  auto credentials = credentialsFor(config, clock_, plugin());
  runner_->enqueue(PluginExit{2, 0, ""});
  auto failed = credentials->forRequest();
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().reason, Reason::kBadConfig);
  EXPECT_THAT(failed.error().message, ::testing::HasSubstr("failed with exit code 2"));
}

}  // namespace
}  // namespace kf
