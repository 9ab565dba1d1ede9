#include "sync/plan/override_policy_status.h"

#include <gtest/gtest.h>

namespace kf::sync {
namespace {

// Verifies the status of a policy applied everywhere.
TEST(OverridePolicyStatusTest, AppliedEverywhere) {
  const Json status = policyStatus(3, {});
  EXPECT_EQ(status["observedGeneration"], 3);
  EXPECT_EQ(status["failedCount"], 0);
  EXPECT_EQ(status["failures"], Json::array());
  EXPECT_EQ(status["conditions"][0]["type"], "Applied");
  EXPECT_EQ(status["conditions"][0]["status"], "True");
  EXPECT_EQ(status["conditions"][0]["reason"], "Applied");
}

// Verifies that failures are counted in full but listed only up to the bound, in order.
TEST(OverridePolicyStatusTest, BoundsTheListedFailures) {
  PolicyFailureBook book;
  for (int i = 0; i < 25; ++i) {
    book[{"apps/web-" + std::to_string(100 + i), "member1"}] = "no path";
  }
  const Json status = policyStatus(1, book);
  EXPECT_EQ(status["failedCount"], 25);
  ASSERT_EQ(status["failures"].size(), kMaxListedFailures);
  EXPECT_EQ(
      status["failures"][0],
      (Json{{"federatedObject", "apps/web-100"}, {"cluster", "member1"}, {"message", "no path"}}));
  EXPECT_EQ(status["conditions"][0]["status"], "False");
  EXPECT_EQ(status["conditions"][0]["reason"], "OverrideFailed");
  EXPECT_NE(status["conditions"][0]["message"].get<std::string>().find("25 object/cluster pairs"),
            std::string::npos);
}

// Verifies the status of a policy whose spec does not validate.
TEST(OverridePolicyStatusTest, InvalidSpec) {
  const Json status = invalidPolicyStatus(2, "spec.overrides: Required value");
  EXPECT_EQ(status["conditions"][0]["reason"], "InvalidSpec");
  EXPECT_EQ(status["conditions"][0]["message"], "applied nowhere: spec.overrides: Required value");
  EXPECT_EQ(status["failedCount"], 0);
}

}  // namespace
}  // namespace kf::sync
