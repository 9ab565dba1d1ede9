#include "apis/policy/override_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "apis/policy/override_variables.h"

namespace kf::policy {
namespace {

using testing::HasSubstr;

Json policyWithSpec(const char* spec, const char* kind = "OverridePolicy") {
  return Json{{"apiVersion", "policy.kubefed-cpp.io/v1alpha1"},
              {"kind", kind},
              {"metadata", {{"name", "eu-registry"}, {"namespace", "apps"}, {"generation", 3}}},
              {"spec", Json::parse(spec)}};
}

std::string parseError(const Json& object) {
  auto parsed = parseOverridePolicy(object);
  return parsed ? std::string("<no error>") : parsed.error().message;
}

// Verifies that the issue's example reads into its parts.
TEST(OverridePolicyTest, ReadsTheExample) {
  auto parsed = parseOverridePolicy(policyWithSpec(R"({
    "resourceSelector": {"kind": "FederatedDeployment",
                         "labelSelector": {"matchLabels": {"tier": "web"}}},
    "clusterSelector": {"matchLabels": {"region": "eu"}},
    "overrides": [{"path": "/spec/template/spec/containers/0/image",
                   "value": "registry-${CLUSTER_LABEL:region}.example/app:1"}]})"));
  ASSERT_TRUE(parsed) << parsed.error().message;
  const OverridePolicy& policy = parsed.value();
  EXPECT_EQ(policy.resource_kind, "FederatedDeployment");
  EXPECT_EQ(policy.ns, "apps");
  EXPECT_EQ(policy.generation, 3);
  EXPECT_FALSE(policy.clusterScoped());
  EXPECT_TRUE(policy.resource_labels.matches({{"tier", "web"}}));
  EXPECT_FALSE(policy.resource_labels.matches({{"tier", "db"}}));
  ASSERT_TRUE(policy.cluster_selector);
  EXPECT_TRUE(policy.cluster_selector->matches({{"region", "eu"}}));
  EXPECT_FALSE(policy.cluster_names);
  ASSERT_EQ(policy.overrides.size(), 1U);
  EXPECT_EQ(policy.describe(), "OverridePolicy \"apps/eu-registry\"");
}

// Verifies that a ClusterOverridePolicy has no namespace, whatever its metadata says.
TEST(OverridePolicyTest, ClusterPolicyIsClusterScoped) {
  auto parsed = parseOverridePolicy(policyWithSpec(
      R"({"resourceSelector": {"kind": "FederatedConfigMap"}, "clusterNames": ["a"],
          "overrides": [{"path": "/data/x", "value": "${CLUSTER_NAME}"}]})",
      "ClusterOverridePolicy"));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_TRUE(parsed.value().clusterScoped());
  EXPECT_EQ(parsed.value().key(), "eu-registry");
  EXPECT_EQ(parsed.value().cluster_names, std::vector<std::string>{"a"});
}

struct BadSpecCase {
  const char* name;
  const char* spec;
  const char* error;
};

class OverridePolicyBadSpecTest : public testing::TestWithParam<BadSpecCase> {};

// Verifies that each bad spec fails with the field path and what is wrong.
TEST_P(OverridePolicyBadSpecTest, NamesTheField) {
  EXPECT_THAT(parseError(policyWithSpec(GetParam().spec)), HasSubstr(GetParam().error));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, OverridePolicyBadSpecTest,
    testing::Values(
        BadSpecCase{"NoResourceSelector", R"({"overrides": [{"path": "/a", "value": 1}]})",
                    "spec.resourceSelector: Required value"},
        BadSpecCase{"NoKind", R"({"resourceSelector": {}, "overrides": [{"path": "/a"}]})",
                    "spec.resourceSelector.kind: Required value"},
        BadSpecCase{"BadSelectorOperator",
                    R"({"resourceSelector": {"kind": "K", "labelSelector": {"matchExpressions":
                        [{"key": "a", "operator": "Has"}]}}, "overrides": [{"path": "/a"}]})",
                    "spec.resourceSelector.labelSelector"},
        BadSpecCase{"BadClusterLabelValue",
                    R"({"resourceSelector": {"kind": "K"}, "clusterSelector": {"matchLabels":
                        {"region": "not valid!"}}, "overrides": [{"path": "/a"}]})",
                    "spec.clusterSelector"},
        BadSpecCase{"SelectorAndNames",
                    R"({"resourceSelector": {"kind": "K"}, "clusterSelector": {},
                        "clusterNames": ["a"], "overrides": [{"path": "/a"}]})",
                    "spec.clusterNames: Forbidden: set clusterSelector or clusterNames, not both"},
        BadSpecCase{"NoOverrides", R"({"resourceSelector": {"kind": "K"}, "overrides": []})",
                    "spec.overrides: Required value"},
        BadSpecCase{"RelativePath",
                    R"({"resourceSelector": {"kind": "K"}, "overrides": [{"path": "spec/a"}]})",
                    "spec.overrides[0].path: Invalid value: \"spec/a\": must be a JSON pointer"},
        BadSpecCase{
            "ForbiddenPath",
            R"({"resourceSelector": {"kind": "K"}, "overrides": [{"path": "/metadata/name"}]})",
            "spec.overrides[0].path: Invalid value: \"/metadata/name\": may not be "
            "overridden"},
        BadSpecCase{"ManagedLabel",
                    R"({"resourceSelector": {"kind": "K"},
                        "overrides": [{"path": "/metadata/labels/kubefed.io~1managed"}]})",
                    "may not be overridden"},
        BadSpecCase{"DuplicatePath",
                    R"({"resourceSelector": {"kind": "K"},
                        "overrides": [{"path": "/a", "value": 1}, {"path": "/a", "value": 2}]})",
                    "spec.overrides[1].path: Duplicate value: \"/a\""},
        BadSpecCase{
            "UnknownOp",
            R"({"resourceSelector": {"kind": "K"}, "overrides": [{"op": "move", "path": "/a"}]})",
            "spec.overrides[0].op: Unsupported value: \"move\""},
        BadSpecCase{"UnknownVariable",
                    R"({"resourceSelector": {"kind": "K"},
                        "overrides": [{"path": "/a", "value": {"x": ["${REGION}"]}}]})",
                    "spec.overrides[0].value[x][0]: Invalid value: \"${REGION}\": unknown "
                    "variable ${REGION}"},
        BadSpecCase{"Unterminated",
                    R"({"resourceSelector": {"kind": "K"},
                        "overrides": [{"path": "/a", "value": "${CLUSTER_NAME"}]})",
                    "unterminated variable"},
        BadSpecCase{"BadLabelKey",
                    R"({"resourceSelector": {"kind": "K"},
                        "overrides": [{"path": "/a", "value": "${CLUSTER_LABEL:-x}"}]})",
                    "label key \"-x\" is not valid"}),
    [](const testing::TestParamInfo<BadSpecCase>& case_info) {
      return std::string(case_info.param.name);
    });

// Verifies that several problems are all reported at once.
TEST(OverridePolicyTest, ReportsEveryProblem) {
  const std::string error = parseError(policyWithSpec(
      R"({"resourceSelector": {}, "overrides": [{"path": "/kind"}, {"path": "x"}]})"));
  EXPECT_THAT(error, HasSubstr("spec.resourceSelector.kind"));
  EXPECT_THAT(error, HasSubstr("spec.overrides[0].path"));
  EXPECT_THAT(error, HasSubstr("spec.overrides[1].path"));
}

// Verifies that a kind other than the two is refused.
TEST(OverridePolicyTest, RefusesOtherKinds) {
  EXPECT_THAT(parseError(policyWithSpec(R"({})", "Policy")),
              HasSubstr("neither OverridePolicy nor ClusterOverridePolicy"));
}

// Verifies that the kind a policy answers to is read even from an invalid policy.
TEST(OverridePolicyTest, ReadsTheResourceKindLeniently) {
  EXPECT_EQ(resourceKindOf(policyWithSpec(R"({"resourceSelector": {"kind": "FederatedX"}})")),
            "FederatedX");
  EXPECT_EQ(resourceKindOf(policyWithSpec(R"({"resourceSelector": 1})")), "");
  EXPECT_EQ(resourceKindOf(Json::object()), "");
}

// Verifies how strings split into text and variables.
TEST(OverrideVariablesTest, SplitsTextAndVariables) {
  using Kind = TemplatePart::Kind;
  auto parts = parseTemplate("a-${CLUSTER_NAME}-${CLUSTER_LABEL:topology.kubernetes.io/region}$b");
  ASSERT_TRUE(parts) << parts.error().message;
  EXPECT_EQ(parts.value(),
            (std::vector<TemplatePart>{{Kind::kText, "a-"},
                                       {Kind::kClusterName, ""},
                                       {Kind::kText, "-"},
                                       {Kind::kClusterLabel, "topology.kubernetes.io/region"},
                                       {Kind::kText, "$b"}}));
  EXPECT_TRUE(parseTemplate("").value().empty());
  EXPECT_FALSE(usesVariables("$x"));
  EXPECT_TRUE(usesVariables("${CLUSTER_NAME}"));
}

}  // namespace
}  // namespace kf::policy
