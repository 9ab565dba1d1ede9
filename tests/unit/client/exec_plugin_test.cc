// An exec credential plugin's life in a client: run once, reused, renewed before it expires and
// after a 401, with errors that say what to do. A scripted runner and a fake clock stand in for
// the process and time.

#include "federation/client/exec_plugin.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "apis/meta/time.h"
#include "tests/support/fake_clock.h"
#include "tests/unit/client/exec_fixtures.h"

namespace kf {
namespace {

using namespace std::chrono_literals;
using test::execConfig;
using test::execOutput;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

class ExecPluginTest : public ::testing::Test {
 protected:
  ExecPluginTest() : runner_(std::make_shared<test::FakePluginRunner>()) {}

  ExecPlugin plugin(ExecConfig config = execConfig()) {
    return ExecPlugin(config, runner_, clock_);
  }

  // A token credential that expires `valid_for` from now on the fake clock.
  void issue(const std::string& token, std::chrono::seconds valid_for) {
    const auto expiry =
        std::chrono::time_point_cast<std::chrono::seconds>(clock_.wallNow()) + valid_for;
    runner_->enqueueOutput(
        execOutput({{"token", token}, {"expirationTimestamp", meta::formatTime(expiry)}}));
  }

  std::string tokenNow(ExecPlugin& plugin) {
    auto credential = plugin.credential();
    EXPECT_TRUE(credential.has_value()) << credential.error().message;
    return credential ? credential.value().token : "";
  }

  test::FakeClock clock_;
  std::shared_ptr<test::FakePluginRunner> runner_;
};

TEST_F(ExecPluginTest, RunsThePluginOnceWithItsArgumentsAndEnvironment) {
  auto exec = plugin();
  issue("first", 3600s);
  EXPECT_EQ(tokenNow(exec), "first");
  clock_.advance(30min);
  EXPECT_EQ(tokenNow(exec), "first");
  const auto runs = runner_->runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].command, "issue-token");
  EXPECT_THAT(runs[0].args, ElementsAre("--cluster", "prod"));
  EXPECT_THAT(runs[0].env, Contains(Pair("PLUGIN_PROFILE", "ops")));
  EXPECT_THAT(
      runs[0].env,
      Contains(Pair(
          "KUBERNETES_EXEC_INFO",
          R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}})")));
}

TEST_F(ExecPluginTest, RenewsTheCredentialShortlyBeforeItExpires) {
  auto exec = plugin();
  issue("first", 60s);
  EXPECT_EQ(tokenNow(exec), "first");
  clock_.advance(49s);
  EXPECT_EQ(tokenNow(exec), "first");
  EXPECT_EQ(runner_->runs().size(), 1u);
  clock_.advance(2s);  // 9 s left
  issue("second", 60s);
  EXPECT_EQ(tokenNow(exec), "second");
  EXPECT_EQ(runner_->runs().size(), 2u);
}

TEST_F(ExecPluginTest, KeepsACredentialWithoutExpiryUntilItIsRejected) {
  auto exec = plugin();
  runner_->enqueueOutput(execOutput({{"token", "forever"}}));
  EXPECT_EQ(tokenNow(exec), "forever");
  clock_.advance(std::chrono::hours(24 * 365));
  EXPECT_EQ(tokenNow(exec), "forever");
  EXPECT_EQ(runner_->runs().size(), 1u);
}

TEST_F(ExecPluginTest, UsesTheOldCredentialUntilItExpiresWhileRenewalFails) {
  auto exec = plugin();
  issue("first", 60s);
  EXPECT_EQ(tokenNow(exec), "first");
  clock_.advance(55s);
  runner_->enqueue(PluginExit{1, 0, ""});
  EXPECT_EQ(tokenNow(exec), "first");
  clock_.advance(10s);
  runner_->enqueue(PluginExit{1, 0, ""});
  auto expired = exec.credential();
  ASSERT_FALSE(expired.has_value());
  EXPECT_EQ(expired.error().message,
            "kubeconfig \"/k\": users[name=\"u\"].user.exec: getting credentials: exec: "
            "executable issue-token failed with exit code 1");
}

TEST_F(ExecPluginTest, RunsAgainWhenTheServerRejectsTheCredential) {
  auto exec = plugin();
  runner_->enqueueOutput(execOutput({{"token", "revoked"}}));
  auto rejected = exec.credential();
  ASSERT_TRUE(rejected.has_value());
  runner_->enqueueOutput(execOutput({{"token", "fresh"}}));
  EXPECT_TRUE(exec.renewAfterRejection(rejected.value()));
  EXPECT_EQ(tokenNow(exec), "fresh");
  // A request that was rejected with the old one while it was being renewed needs no new run.
  EXPECT_TRUE(exec.renewAfterRejection(rejected.value()));
  EXPECT_EQ(runner_->runs().size(), 2u);
  // The plugin has nothing better: not worth sending the request again.
  auto current = exec.credential();
  runner_->enqueueOutput(execOutput({{"token", "fresh"}}));
  EXPECT_FALSE(exec.renewAfterRejection(current.value()));
}

TEST_F(ExecPluginTest, ReportsAMissingPluginWithItsInstallHint) {
  ExecConfig config = execConfig();
  config.install_hint = "Install issue-token with: apt install issue-token";
  auto exec = plugin(config);
  runner_->enqueue(makeError(Reason::kNotFound, "executable issue-token not found"));
  auto missing = exec.credential();
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message,
            "kubeconfig \"/k\": users[name=\"u\"].user.exec: getting credentials: exec: "
            "executable issue-token not found\n\n"
            "It looks like you are trying to use a client-go credential plugin that is not "
            "installed.\n\n"
            "To learn more about this feature, consult the documentation available at:\n"
            "      https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
            "#client-go-credential-plugins\n\n"
            "Install issue-token with: apt install issue-token");
}

TEST_F(ExecPluginTest, ReportsAPluginKilledBySignalOrPrintingSomethingElse) {
  auto exec = plugin();
  runner_->enqueue(PluginExit{0, 9, ""});
  EXPECT_THAT(exec.credential().error().message,
              HasSubstr("exec: executable issue-token was killed by signal 9"));
  runner_->enqueueOutput("Please log in first");
  EXPECT_THAT(exec.credential().error().message,
              HasSubstr("getting credentials: decoding stdout: not JSON"));
}

TEST_F(ExecPluginTest, RefusesToRunAnAlwaysInteractivePlugin) {
  ExecConfig config = execConfig();
  config.interactive_mode = "Always";
  auto exec = plugin(config);
  EXPECT_THAT(exec.credential().error().message,
              HasSubstr("getting credentials: exec plugin cannot support interactive mode"));
  EXPECT_TRUE(runner_->runs().empty());
}

}  // namespace
}  // namespace kf
