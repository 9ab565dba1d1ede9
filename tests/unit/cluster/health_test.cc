#include "federation/cluster/health.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

using std::chrono::seconds;

const SystemTime kNow = SystemTime(seconds(1'700'000'000));  // 2023-11-14T22:13:20Z
const std::string kNowText = "2023-11-14T22:13:20Z";

HealthzOutcome body(std::string text) { return text; }
HealthzOutcome failure(Reason reason, std::string message, int http_code = 0) {
  return ApiError{reason, http_code, std::move(message), {}, std::nullopt};
}

void expectCondition(const core::ClusterCondition& condition, const std::string& type,
                     const std::string& status, const std::string& reason) {
  EXPECT_EQ(condition.type, type);
  EXPECT_EQ(condition.status, status);
  EXPECT_EQ(condition.reason, reason);
  EXPECT_EQ(condition.last_probe_time, kNowText);
  EXPECT_EQ(condition.last_transition_time, kNowText);
}

// Verifies an "ok" body gives exactly one Ready=True condition with KubeFed's reason and message.
TEST(HealthConditionsTest, OkBodyIsReadyOnly) {
  const auto conditions = conditionsForProbe(body("ok"), kNow);
  ASSERT_EQ(conditions.size(), 1U);
  expectCondition(conditions[0], "Ready", "True", "ClusterReady");
  EXPECT_EQ(conditions[0].message, "/healthz responded with ok");
  EXPECT_EQ(classifyProbe(body("ok")), ClusterHealth::kReady);
}

// Verifies the body is compared without regard to case, as KubeFed's EqualFold does.
TEST(HealthConditionsTest, OkBodyIgnoresCase) {
  EXPECT_EQ(classifyProbe(body("OK")), ClusterHealth::kReady);
  EXPECT_EQ(classifyProbe(body("oK")), ClusterHealth::kReady);
  EXPECT_EQ(classifyProbe(body("ok\n")), ClusterHealth::kNotReady);
}

// Verifies any other body gives Ready=False plus Offline=False, in that order.
TEST(HealthConditionsTest, OtherBodyIsNotReadyButReachable) {
  const auto conditions = conditionsForProbe(body("[-]etcd failed"), kNow);
  ASSERT_EQ(conditions.size(), 2U);
  expectCondition(conditions[0], "Ready", "False", "ClusterNotReady");
  EXPECT_EQ(conditions[0].message, "/healthz responded without ok");
  expectCondition(conditions[1], "Offline", "False", "ClusterReachable");
  EXPECT_EQ(conditions[1].message, "cluster is reachable");
  EXPECT_EQ(classifyProbe(body("")), ClusterHealth::kNotReady);
}

// Verifies an error gives only Offline=True (no Ready condition at all).
TEST(HealthConditionsTest, ErrorIsOfflineWithoutReadyCondition) {
  const auto conditions =
      conditionsForProbe(failure(Reason::kConnectionFailed, "connection refused"), kNow);
  ASSERT_EQ(conditions.size(), 1U);
  expectCondition(conditions[0], "Offline", "True", "ClusterNotReachable");
  EXPECT_EQ(conditions[0].message, "cluster is not reachable");  // KubeFed's, without the cause
  EXPECT_FALSE(isClusterReady(conditions));
}

// Verifies the Offline message tells a wrong CA, a bad token, a refused connection and a timeout
// apart.
TEST(HealthConditionsTest, UnreachableMessageSaysWhy) {
  const std::string tls = unreachableMessage(
      {Reason::kTlsVerification, 0, "the server certificate did not verify", {}, std::nullopt});
  EXPECT_NE(tls.find("TLS verification"), std::string::npos) << tls;
  EXPECT_NE(tls.find("did not verify"), std::string::npos) << tls;

  const std::string auth =
      unreachableMessage({Reason::kUnauthorized, 401, "Unauthorized", {}, std::nullopt});
  EXPECT_NE(auth.find("authentication failed (401"), std::string::npos) << auth;
  EXPECT_NE(auth.find("token"), std::string::npos) << auth;

  const std::string refused = unreachableMessage(
      {Reason::kConnectionFailed, 0, "connecting failed: Connection refused", {}, std::nullopt});
  EXPECT_NE(refused.find("cannot connect"), std::string::npos) << refused;
  EXPECT_NE(refused.find("Connection refused"), std::string::npos) << refused;

  const std::string timeout = unreachableMessage(
      {Reason::kClientTimeout, 0, "reading the response failed", {}, std::nullopt});
  EXPECT_NE(timeout.find("timed out"), std::string::npos) << timeout;

  const std::string server_error =
      unreachableMessage({Reason::kInternalError, 500, "etcd failed", {}, std::nullopt});
  EXPECT_NE(server_error.find("/healthz failed"), std::string::npos) << server_error;
  EXPECT_NE(server_error.find("500"), std::string::npos) << server_error;

  for (const auto& message : {tls, auth, refused, timeout, server_error}) {
    EXPECT_EQ(message.rfind("cluster is not reachable: ", 0), 0U) << message;
  }
}

// Verifies a multi-line /healthz failure report becomes one bounded line.
TEST(HealthConditionsTest, UnreachableMessageIsOneBoundedLine) {
  const std::string report = "[+]ping ok\n[-]etcd failed: reason withheld\nhealthz check failed\n";
  const std::string message =
      unreachableMessage({Reason::kInternalError, 500, report, {}, std::nullopt});
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find("[+]ping ok; [-]etcd failed: reason withheld; healthz check failed"),
            std::string::npos)
      << message;

  const std::string long_message =
      unreachableMessage({Reason::kInternalError, 500, std::string(5000, 'x'), {}, std::nullopt});
  EXPECT_LT(long_message.size(), 400U);
  EXPECT_TRUE(long_message.ends_with("...")) << long_message;
}

// Verifies readiness and state are read from conditions as KubeFed defines them.
TEST(HealthConditionsTest, HealthOfConditions) {
  EXPECT_EQ(healthOf(conditionsForProbe(body("ok"), kNow)), ClusterHealth::kReady);
  EXPECT_EQ(healthOf(conditionsForProbe(body("no"), kNow)), ClusterHealth::kNotReady);
  EXPECT_EQ(healthOf(conditionsForProbe(failure(Reason::kClientTimeout, "x"), kNow)),
            ClusterHealth::kOffline);
  EXPECT_EQ(healthOf({}), std::nullopt);
  EXPECT_STREQ(healthName(ClusterHealth::kNotReady), "notready");
}

// Verifies condition times are RFC 3339 UTC with whole seconds, as metav1.Time marshals them.
TEST(HealthConditionsTest, FormatsTimesLikeMetaV1Time) {
  EXPECT_EQ(formatConditionTime(kNow), kNowText);
  EXPECT_EQ(formatConditionTime(kNow + std::chrono::milliseconds(999)), kNowText);
  EXPECT_EQ(formatConditionTime(SystemTime{}), "1970-01-01T00:00:00Z");
}

}  // namespace
}  // namespace kf
