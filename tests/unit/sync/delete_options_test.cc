#include "sync/plan/delete_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf::sync {
namespace {

using testing::HasSubstr;

Json annotated(const char* options) {
  return Json{{"metadata", {{"annotations", {{"kubefed.io/deleteoption", options}}}}}};
}

// Verifies deletionannotation_test: no annotation means no options.
TEST(DeleteOptionsTest, NoAnnotationNoOptions) {
  auto options = deleteOptionsOf(Json{{"metadata", {{"name", "x"}}}});
  ASSERT_TRUE(options);
  EXPECT_FALSE(options.value().has_value());
}

// Verifies deletionannotation_test: propagationPolicy, gracePeriodSeconds and both.
TEST(DeleteOptionsTest, Vectors) {
  auto orphan = deleteOptionsOf(annotated(R"({"propagationPolicy":"Orphan"})"));
  ASSERT_TRUE(orphan && orphan.value());
  EXPECT_EQ(orphan.value()->propagation_policy, "Orphan");
  EXPECT_FALSE(orphan.value()->grace_period_seconds.has_value());
  auto grace = deleteOptionsOf(annotated(R"({"gracePeriodSeconds":5})"));
  ASSERT_TRUE(grace && grace.value());
  EXPECT_EQ(grace.value()->grace_period_seconds, 5);
  EXPECT_FALSE(grace.value()->propagation_policy.has_value());
  auto both =
      deleteOptionsOf(annotated(R"({"propagationPolicy":"Orphan","gracePeriodSeconds":5})"));
  ASSERT_TRUE(both && both.value());
  EXPECT_EQ(both.value()->propagation_policy, "Orphan");
  EXPECT_EQ(both.value()->grace_period_seconds, 5);
}

// Verifies that preconditions are read and unused fields are only type-checked.
TEST(DeleteOptionsTest, PreconditionsAndUnusedFields) {
  auto options = parseDeleteOptions(
      R"({"kind": "DeleteOptions", "apiVersion": "v1", "dryRun": ["All"], "orphanDependents": false,
          "preconditions": {"uid": "u-1", "resourceVersion": "7"}, "unknown": 1})");
  ASSERT_TRUE(options) << options.error().message;
  EXPECT_EQ(options.value().precondition_uid, "u-1");
  EXPECT_EQ(options.value().precondition_resource_version, "7");
  EXPECT_FALSE(options.value().propagation_policy.has_value());
}

// Verifies Go's decoding rules: case-insensitive keys, null leaves fields unset, JSON null is
// an empty set of options.
TEST(DeleteOptionsTest, GoDecodingRules) {
  auto folded =
      parseDeleteOptions(R"({"PropagationPolicy": "Background", "GRACEPERIODSECONDS": 0})");
  ASSERT_TRUE(folded) << folded.error().message;
  EXPECT_EQ(folded.value().propagation_policy, "Background");
  EXPECT_EQ(folded.value().grace_period_seconds, 0);
  auto nulls = parseDeleteOptions(R"({"propagationPolicy": null, "preconditions": null})");
  ASSERT_TRUE(nulls);
  EXPECT_FALSE(nulls.value().propagation_policy.has_value());
  EXPECT_FALSE(nulls.value().precondition_uid.has_value());
  EXPECT_TRUE(parseDeleteOptions("null"));
}

// Verifies that invalid JSON and wrong types are errors with Go's wording.
TEST(DeleteOptionsTest, InvalidInputFails) {
  auto invalid = deleteOptionsOf(annotated("{not json"));
  ASSERT_FALSE(invalid);
  EXPECT_THAT(invalid.error().message, HasSubstr("failed to deserialize delete options"));
  EXPECT_FALSE(parseDeleteOptions(""));
  EXPECT_EQ(parseDeleteOptions(R"({"gracePeriodSeconds": "5"})").error().message,
            "failed to deserialize delete options: json: cannot unmarshal string into Go struct "
            "field DeleteOptions.gracePeriodSeconds of type int64");
  EXPECT_EQ(parseDeleteOptions(R"({"gracePeriodSeconds": 5.5})").error().message,
            "failed to deserialize delete options: json: cannot unmarshal number 5.5 into Go "
            "struct field DeleteOptions.gracePeriodSeconds of type int64");
  EXPECT_FALSE(parseDeleteOptions(R"({"gracePeriodSeconds": 9223372036854775808})"));
  EXPECT_FALSE(parseDeleteOptions(R"({"propagationPolicy": 1})"));
  EXPECT_FALSE(parseDeleteOptions(R"({"preconditions": {"uid": 1}})"));
  EXPECT_FALSE(parseDeleteOptions(R"({"dryRun": "All"})"));
  EXPECT_FALSE(parseDeleteOptions(R"({"orphanDependents": "yes"})"));
  EXPECT_EQ(parseDeleteOptions(R"("Orphan")").error().message,
            "failed to deserialize delete options: json: cannot unmarshal string into Go value of "
            "type v1.DeleteOptions");
}

}  // namespace
}  // namespace kf::sync
