#include "sync/plan/override_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sync/plan/desired_object.h"

namespace kf::sync {
namespace {

using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

policy::OverridePolicy policyNamed(const char* kind, const char* name, const char* spec,
                                   const char* ns = "apps") {
  Json object{{"kind", kind},
              {"metadata", {{"name", name}, {"namespace", ns}}},
              {"spec", Json::parse(spec)}};
  auto parsed = policy::parseOverridePolicy(object);
  EXPECT_TRUE(parsed) << parsed.error().message;
  return parsed ? parsed.value() : policy::OverridePolicy{};
}

Json policyTestDeployment(const char* ns, const char* name, Json labels, Json overrides = Json()) {
  Json object{
      {"apiVersion", "types.kubefed.io/v1beta1"},
      {"kind", "FederatedDeployment"},
      {"metadata", {{"name", name}, {"namespace", ns}, {"labels", std::move(labels)}}},
      {"spec",
       {{"template",
         {{"spec", {{"template", {{"spec", {{"containers", {{{"image", "app:1"}}}}}}}}}}}}}}};
  if (!overrides.is_null()) object["spec"]["overrides"] = std::move(overrides);
  return object;
}

const char* kEuRegistry = R"({
  "resourceSelector": {"kind": "FederatedDeployment", "labelSelector": {"matchLabels": {"tier": "web"}}},
  "clusterSelector": {"matchLabels": {"region": "eu"}},
  "overrides": [{"path": "/spec/template/spec/containers/0/image",
                 "value": "registry-${CLUSTER_LABEL:region}.example/app"}]})";

const std::vector<PolicyCluster> kPolicyTestClusters = {
    {"a", {{"region", "eu"}}}, {"b", {{"region", "eu"}}}, {"c", {{"region", "us"}}}};

std::string policyTestImage(const Json& object) {
  return object["spec"]["template"]["spec"]["containers"][0]["image"].get<std::string>();
}

struct PolicySelectCase {
  const char* name;
  const char* policy_kind;
  const char* policy_namespace;
  const char* object_namespace;
  Json object_labels;
  const char* object_kind;
  bool selected;
};

class PolicySelectsObjectTest : public testing::TestWithParam<PolicySelectCase> {};

// Verifies which federated objects a policy selects: kind, labels and (namespaced) namespace.
TEST_P(PolicySelectsObjectTest, Selects) {
  const PolicySelectCase& c = GetParam();
  auto policy = policyNamed(c.policy_kind, "p", kEuRegistry, c.policy_namespace);
  Json object = policyTestDeployment(c.object_namespace, "web", c.object_labels);
  object["kind"] = c.object_kind;
  EXPECT_EQ(policySelectsObject(policy, object), c.selected);
}

INSTANTIATE_TEST_SUITE_P(Cases, PolicySelectsObjectTest,
                         testing::Values(PolicySelectCase{"SameNamespaceAndLabels",
                                                          "OverridePolicy",
                                                          "apps",
                                                          "apps",
                                                          {{"tier", "web"}},
                                                          "FederatedDeployment",
                                                          true},
                                         PolicySelectCase{"OtherNamespace",
                                                          "OverridePolicy",
                                                          "apps",
                                                          "other",
                                                          {{"tier", "web"}},
                                                          "FederatedDeployment",
                                                          false},
                                         PolicySelectCase{"ClusterPolicyAnyNamespace",
                                                          "ClusterOverridePolicy",
                                                          "",
                                                          "other",
                                                          {{"tier", "web"}},
                                                          "FederatedDeployment",
                                                          true},
                                         PolicySelectCase{"OtherLabels",
                                                          "OverridePolicy",
                                                          "apps",
                                                          "apps",
                                                          {{"tier", "db"}},
                                                          "FederatedDeployment",
                                                          false},
                                         PolicySelectCase{"NoLabels", "OverridePolicy", "apps",
                                                          "apps", Json(), "FederatedDeployment",
                                                          false},
                                         PolicySelectCase{"OtherKind",
                                                          "OverridePolicy",
                                                          "apps",
                                                          "apps",
                                                          {{"tier", "web"}},
                                                          "FederatedConfigMap",
                                                          false}),
                         [](const testing::TestParamInfo<PolicySelectCase>& case_info) {
                           return std::string(case_info.param.name);
                         });

// Verifies that a policy without a resource label selector selects every object of its kind.
TEST(OverridePolicySelectionTest, NoLabelSelectorSelectsTheKind) {
  auto policy = policyNamed("OverridePolicy", "p",
                            R"({"resourceSelector": {"kind": "FederatedDeployment"},
                               "overrides": [{"path": "/a", "value": 1}]})");
  EXPECT_TRUE(policySelectsObject(policy, policyTestDeployment("apps", "x", Json())));
}

// Verifies which clusters a policy selects: by names, by selector, or all.
TEST(OverridePolicySelectionTest, SelectsClusters) {
  auto by_selector = policyNamed("OverridePolicy", "p", kEuRegistry);
  auto by_names = policyNamed("OverridePolicy", "p",
                              R"({"resourceSelector": {"kind": "K"}, "clusterNames": ["c"],
                                 "overrides": [{"path": "/a"}]})");
  auto all = policyNamed("OverridePolicy", "p",
                         R"({"resourceSelector": {"kind": "K"}, "overrides": [{"path": "/a"}]})");
  std::vector<std::string> selected_by_selector, selected_by_names, selected_all;
  for (const PolicyCluster& cluster : kPolicyTestClusters) {
    if (policySelectsCluster(by_selector, cluster)) selected_by_selector.push_back(cluster.name);
    if (policySelectsCluster(by_names, cluster)) selected_by_names.push_back(cluster.name);
    if (policySelectsCluster(all, cluster)) selected_all.push_back(cluster.name);
  }
  EXPECT_THAT(selected_by_selector, ElementsAre("a", "b"));
  EXPECT_THAT(selected_by_names, ElementsAre("c"));
  EXPECT_THAT(selected_all, ElementsAre("a", "b", "c"));
}

// Verifies the order: cluster-scoped policies by name, then namespaced ones by name.
TEST(OverridePolicySelectionTest, OrdersClusterPoliciesFirstThenByName) {
  const char* spec = R"({"resourceSelector": {"kind": "FederatedDeployment"},
                         "overrides": [{"path": "/a", "value": 1}]})";
  std::vector<policy::OverridePolicy> policies = {
      policyNamed("OverridePolicy", "b", spec), policyNamed("ClusterOverridePolicy", "z", spec),
      policyNamed("OverridePolicy", "a", spec), policyNamed("ClusterOverridePolicy", "y", spec)};
  std::vector<std::string> order;
  for (const auto* policy :
       policiesSelecting(policies, policyTestDeployment("apps", "x", Json()))) {
    order.push_back(policy->describe());
  }
  EXPECT_THAT(order, ElementsAre("ClusterOverridePolicy \"y\"", "ClusterOverridePolicy \"z\"",
                                 "OverridePolicy \"apps/a\"", "OverridePolicy \"apps/b\""));
}

struct PolicyExpandCase {
  const char* name;
  Json value;
  Json expected;  // null: an error
  const char* error;
};

class ExpandVariablesTest : public testing::TestWithParam<PolicyExpandCase> {};

// Verifies variable expansion in strings, nested values and non-strings.
TEST_P(ExpandVariablesTest, Expands) {
  const PolicyCluster cluster{"member-1", {{"region", "eu"}, {"zone", "eu-1a"}}};
  auto expanded = expandVariables(GetParam().value, cluster);
  if (GetParam().expected.is_null()) {
    ASSERT_FALSE(expanded);
    EXPECT_THAT(expanded.error().message, HasSubstr(GetParam().error));
  } else {
    ASSERT_TRUE(expanded) << expanded.error().message;
    EXPECT_EQ(expanded.value(), GetParam().expected);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ExpandVariablesTest,
    testing::Values(
        PolicyExpandCase{"Name", "${CLUSTER_NAME}", "member-1", ""},
        PolicyExpandCase{"LabelInText", "registry-${CLUSTER_LABEL:region}.example/app",
                         "registry-eu.example/app", ""},
        PolicyExpandCase{"Several", "${CLUSTER_NAME}/${CLUSTER_LABEL:zone}", "member-1/eu-1a", ""},
        PolicyExpandCase{"Nested", Json::parse(R"({"a": ["${CLUSTER_NAME}", 3], "b": true})"),
                         Json::parse(R"({"a": ["member-1", 3], "b": true})"), ""},
        PolicyExpandCase{"NoVariables", "plain $text", "plain $text", ""},
        PolicyExpandCase{"Number", 5, 5, ""},
        PolicyExpandCase{"MissingLabel", "${CLUSTER_LABEL:tier}", Json(),
                         "cluster \"member-1\" has no label \"tier\""}),
    [](const testing::TestParamInfo<PolicyExpandCase>& case_info) {
      return std::string(case_info.param.name);
    });

// Verifies the issue's example: the two EU clusters get their regional registry, the other none.
TEST(PolicyPatchesTest, ExpandsPerSelectedCluster) {
  const std::vector<policy::OverridePolicy> policies = {
      policyNamed("OverridePolicy", "eu-registry", kEuRegistry)};
  const PolicyPatches patches = policyPatchesFor(
      policies, policyTestDeployment("apps", "web", {{"tier", "web"}}), kPolicyTestClusters);
  EXPECT_THAT(patches.selecting, ElementsAre("OverridePolicy \"apps/eu-registry\""));
  ASSERT_EQ(patches.by_cluster.size(), 2U);
  EXPECT_EQ(patches.forCluster("a").at(0).overrides.at(0).value, Json("registry-eu.example/app"));
  EXPECT_THAT(patches.forCluster("c"), IsEmpty());
  EXPECT_THAT(patches.failures, IsEmpty());
}

// Verifies that a cluster lacking a label the policy uses gets a failure, not an empty value,
// and that the other clusters still get the policy.
TEST(PolicyPatchesTest, MissingLabelFailsOnlyThatCluster) {
  const std::vector<policy::OverridePolicy> policies = {
      policyNamed("OverridePolicy", "p",
                  R"({"resourceSelector": {"kind": "FederatedDeployment"},
                     "overrides": [{"path": "/spec/x", "value": "${CLUSTER_LABEL:region}"}]})")};
  const std::vector<PolicyCluster> clusters = {{"a", {{"region", "eu"}}}, {"b", {}}};
  const PolicyPatches patches =
      policyPatchesFor(policies, policyTestDeployment("apps", "web", Json()), clusters);
  EXPECT_EQ(patches.forCluster("a").size(), 1U);
  EXPECT_THAT(patches.forCluster("b"), IsEmpty());
  ASSERT_EQ(patches.failures.size(), 1U);
  EXPECT_EQ(patches.failures[0].cluster, "b");
  EXPECT_THAT(patches.failures[0].message, HasSubstr("spec.overrides[0].value"));
}

// Verifies that a patch the object cannot take is dropped whole and reported, while the other
// policies for that cluster stay.
TEST(PolicyPatchesTest, DropsAPatchThatFails) {
  const std::vector<policy::OverridePolicy> policies = {
      policyNamed("OverridePolicy", "bad",
                  R"({"resourceSelector": {"kind": "FederatedDeployment"},
                     "overrides": [{"path": "/spec/y", "value": 1},
                                   {"op": "remove", "path": "/spec/missing"}]})"),
      policyNamed("OverridePolicy", "good",
                  R"({"resourceSelector": {"kind": "FederatedDeployment"},
                     "overrides": [{"path": "/spec/z", "value": 2}]})")};
  const Json object = policyTestDeployment("apps", "web", Json());
  PolicyPatches patches = policyPatchesFor(policies, object, {{"a", {}}});
  dropFailingPatches(patches, Json{{"spec", Json::object()}});
  ASSERT_EQ(patches.forCluster("a").size(), 1U);
  EXPECT_EQ(patches.forCluster("a")[0].policy, "OverridePolicy \"apps/good\"");
  ASSERT_EQ(patches.failures.size(), 1U);
  EXPECT_EQ(patches.failures[0].policy, "OverridePolicy \"apps/bad\"");
  EXPECT_THAT(patches.failures[0].message, HasSubstr("/spec/missing"));

  Json target{{"spec", Json::object()}};
  const auto failures = applyPolicyPatches(
      target, "a",
      {PolicyPatch{"bad", {{"", "/spec/y", Json(1)}, {"remove", "/spec/missing", std::nullopt}}}});
  EXPECT_EQ(failures.size(), 1U);
  EXPECT_EQ(target, (Json{{"spec", Json::object()}})) << "a failing policy changes nothing";
}

// Verifies that the object's own overrides apply after the policies, so they win.
TEST(PolicyPatchesTest, TheObjectsOwnOverrideWins) {
  const std::vector<policy::OverridePolicy> policies = {
      policyNamed("OverridePolicy", "eu-registry", kEuRegistry)};
  const Json object = policyTestDeployment("apps", "web", {{"tier", "web"}},
                                           Json::parse(R"([{"clusterName": "a", "clusterOverrides":
                       [{"path": "/spec/template/spec/containers/0/image", "value": "own"}]}])"));
  const PolicyPatches patches = policyPatchesFor(policies, object, kPolicyTestClusters);
  core::ApiResource deployment;
  deployment.group = "apps";
  deployment.version = "v1";
  deployment.kind = "Deployment";
  const auto in_a =
      desiredObjectForCluster(object, deployment, "a", nullptr, &patches.forCluster("a"));
  const auto in_b =
      desiredObjectForCluster(object, deployment, "b", nullptr, &patches.forCluster("b"));
  const auto in_c =
      desiredObjectForCluster(object, deployment, "c", nullptr, &patches.forCluster("c"));
  ASSERT_TRUE(in_a.ok() && in_b.ok() && in_c.ok());
  EXPECT_EQ(policyTestImage(in_a.object), "own");
  EXPECT_EQ(policyTestImage(in_b.object), "registry-eu.example/app");
  EXPECT_EQ(policyTestImage(in_c.object), "app:1");
}

// Verifies the per-cluster fingerprint: none without patches, and a change only in the cluster
// whose expanded values changed.
TEST(PolicyPatchesTest, DigestFollowsEachClustersValues) {
  const std::vector<policy::OverridePolicy> policies = {
      policyNamed("OverridePolicy", "eu-registry", kEuRegistry)};
  const Json object = policyTestDeployment("apps", "web", {{"tier", "web"}});
  const PolicyPatches before = policyPatchesFor(policies, object, kPolicyTestClusters);
  const PolicyPatches after = policyPatchesFor(
      policies, object, {{"a", {{"region", "eu"}}}, {"b", {{"region", "us"}}}, {"c", {}}});
  EXPECT_EQ(clusterPatchesDigest(before.forCluster("c")), "");
  EXPECT_FALSE(clusterPatchesDigest(before.forCluster("a")).empty());
  EXPECT_EQ(clusterPatchesDigest(before.forCluster("a")),
            clusterPatchesDigest(after.forCluster("a")));
  EXPECT_NE(clusterPatchesDigest(before.forCluster("b")),
            clusterPatchesDigest(after.forCluster("b")));
}

// Verifies that recorded versions carry each cluster's fingerprint, and count only under the
// same fingerprint: a cluster whose patches changed, appeared or went is written again, the
// others are not.
TEST(PolicyPatchesTest, RecordedVersionsFollowEachClustersPatches) {
  const std::vector<policy::OverridePolicy> policies = {
      policyNamed("OverridePolicy", "eu-registry", kEuRegistry)};
  const Json object = policyTestDeployment("apps", "web", {{"tier", "web"}});
  const PolicyPatches before = policyPatchesFor(policies, object, kPolicyTestClusters);
  const ClusterVersions recorded =
      versionsWithPolicies({{"a", "rv:1"}, {"b", "rv:2"}, {"c", "rv:3"}, {"gone", ""}}, before);
  EXPECT_EQ(recorded.at("a"), "rv:1+policies:" + clusterPatchesDigest(before.forCluster("a")));
  EXPECT_EQ(recorded.at("c"), "rv:3") << "no policy there: KubeFed's version";
  EXPECT_EQ(recorded.at("gone"), "");
  EXPECT_EQ(versionsUnderPolicies(recorded, before),
            (ClusterVersions{{"a", "rv:1"}, {"b", "rv:2"}, {"c", "rv:3"}, {"gone", ""}}));

  // b leaves the EU, c joins it: only they are written again.
  const PolicyPatches relabelled = policyPatchesFor(
      policies, object,
      {{"a", {{"region", "eu"}}}, {"b", {{"region", "us"}}}, {"c", {{"region", "eu"}}}});
  EXPECT_EQ(versionsUnderPolicies(recorded, relabelled),
            (ClusterVersions{{"a", "rv:1"}, {"gone", ""}}));
  // Without policies, the versions recorded under them no longer count.
  EXPECT_EQ(versionsUnderPolicies(recorded, PolicyPatches{}),
            (ClusterVersions{{"c", "rv:3"}, {"gone", ""}}));
}

}  // namespace
}  // namespace kf::sync
