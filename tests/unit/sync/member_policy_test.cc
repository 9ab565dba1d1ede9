#include "sync/plan/member_policy.h"

#include <gtest/gtest.h>

namespace kf::sync {
namespace {

Json policyFederatedWith(const StringMap& annotations) {
  Json object = {{"metadata", {{"name", "web"}}}};
  for (const auto& [key, value] : annotations) object["metadata"]["annotations"][key] = value;
  return object;
}

// Verifies that without annotations the policy is KubeFed's: revert, compare nothing.
TEST(MemberPolicyTest, WithoutAnnotationsItIsKubeFeds) {
  auto policy = resolveMemberPolicy({}, policyFederatedWith({{"other", "x"}}));
  ASSERT_TRUE(policy) << policy.error().message;
  EXPECT_EQ(policy.value(), MemberPolicy{});
  EXPECT_TRUE(policy.value().isKubeFeds());
  EXPECT_FALSE(policy.value().reports());
}

// Verifies each drift mode, set on the object.
TEST(MemberPolicyTest, ReadsEachDriftMode) {
  const std::pair<const char*, DriftMode> modes[] = {
      {"Revert", DriftMode::kRevert},
      {"ReportAndRevert", DriftMode::kReportAndRevert},
      {"ReportOnly", DriftMode::kReportOnly}};
  for (const auto& [name, mode] : modes) {
    auto policy = resolveMemberPolicy({}, policyFederatedWith({{kDriftAnnotation, name}}));
    ASSERT_TRUE(policy) << name;
    EXPECT_EQ(policy.value().drift, mode) << name;
  }
}

// Verifies that the type's annotations are the default, and that the object's win key by key.
TEST(MemberPolicyTest, TheObjectWinsOverItsTypeKeyByKey) {
  const StringMap type = {{kDriftAnnotation, "ReportOnly"}, {kDriftIgnoreAnnotation, "/data/a"}};
  auto defaulted = resolveMemberPolicy(type, policyFederatedWith({}));
  ASSERT_TRUE(defaulted);
  EXPECT_EQ(defaulted.value().drift, DriftMode::kReportOnly);
  EXPECT_EQ(defaulted.value().ignored, std::vector<std::string>{"/data/a"});

  auto own = resolveMemberPolicy(type, policyFederatedWith({{kDriftAnnotation, "Revert"}}));
  ASSERT_TRUE(own);
  EXPECT_EQ(own.value().drift, DriftMode::kRevert);
  EXPECT_EQ(own.value().ignored, std::vector<std::string>{"/data/a"});

  auto ignored_here = resolveMemberPolicy(
      type, policyFederatedWith({{kDriftIgnoreAnnotation, " /spec/replicas , /x"}}));
  ASSERT_TRUE(ignored_here);
  EXPECT_EQ(ignored_here.value().drift, DriftMode::kReportOnly);
  EXPECT_EQ(ignored_here.value().ignored, (std::vector<std::string>{"/spec/replicas", "/x"}));
}

// Verifies that a value it does not know fails, naming the annotation, the value, where it was
// set and what is accepted.
TEST(MemberPolicyTest, AnUnknownValueIsAClearError) {
  auto bad = resolveMemberPolicy({}, policyFederatedWith({{kDriftAnnotation, "reportonly"}}));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "annotation kubefed-cpp.io/drift on the federated object is \"reportonly\": expected "
            "Revert, ReportAndRevert or ReportOnly");

  auto bad_type =
      resolveMemberPolicy({{kDriftIgnoreAnnotation, "data/a"}}, policyFederatedWith({}));
  ASSERT_FALSE(bad_type);
  EXPECT_NE(bad_type.error().message.find(
                "annotation kubefed-cpp.io/drift-ignore on its FederatedTypeConfig is \"data/a\""),
            std::string::npos)
      << bad_type.error().message;
  EXPECT_NE(bad_type.error().message.find("/spec/replicas"), std::string::npos);
}

// Verifies which policies write back what another writer changed (and so keep KubeFed's delay
// before a member change is looked at).
TEST(MemberPolicyTest, OnlyRevertingUpdatesWriteBack) {
  EXPECT_TRUE(MemberPolicy{}.writesBack());
  EXPECT_TRUE(MemberPolicy{.drift = DriftMode::kReportAndRevert}.writesBack());
  EXPECT_FALSE(MemberPolicy{.drift = DriftMode::kReportOnly}.writesBack());
  EXPECT_FALSE(MemberPolicy{.apply = ApplyMode::kServerSide}.writesBack());
}

// Verifies that an apply mode it does not know is a clear error, and each known one is read.
TEST(MemberPolicyTest, ReadsTheApplyMode) {
  auto server_side =
      resolveMemberPolicy({{kApplyAnnotation, "ServerSide"}}, policyFederatedWith({}));
  ASSERT_TRUE(server_side);
  EXPECT_TRUE(server_side.value().serverSide());
  EXPECT_FALSE(server_side.value().isKubeFeds());
  auto update = resolveMemberPolicy({{kApplyAnnotation, "ServerSide"}},
                                    policyFederatedWith({{kApplyAnnotation, "Update"}}));
  ASSERT_TRUE(update);
  EXPECT_TRUE(update.value().isKubeFeds());
  auto bad = resolveMemberPolicy({}, policyFederatedWith({{kApplyAnnotation, "Apply"}}));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "annotation kubefed-cpp.io/apply on the federated object is \"Apply\": expected Update "
            "or ServerSide");
}

// Verifies that only the policy annotations of a FederatedTypeConfig are kept as defaults.
TEST(MemberPolicyTest, PicksThePolicyAnnotationsOfAType) {
  EXPECT_EQ(policyAnnotations(std::nullopt), StringMap{});
  EXPECT_EQ(policyAnnotations(StringMap{{kDriftAnnotation, "ReportOnly"}, {"kubefed.io/x", "y"}}),
            (StringMap{{kDriftAnnotation, "ReportOnly"}}));
}

}  // namespace
}  // namespace kf::sync
