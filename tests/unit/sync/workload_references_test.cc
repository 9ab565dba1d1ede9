// Dependencies that follow their workloads: what a pod template references, table-tested field
// by field, and the follower's placement as the union of its workloads'.

#include "sync/plan/workload_references.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf::sync {
namespace {

using testing::ElementsAre;
using testing::IsEmpty;

struct ReferenceCase {
  std::string name;
  Json pod_spec;
  PodTemplateReferences expected;
};

class ReferencesOfTest : public testing::TestWithParam<ReferenceCase> {};

TEST_P(ReferencesOfTest, FindsEveryReferencedName) {
  const ReferenceCase& c = GetParam();
  EXPECT_EQ(referencesOf(Json{{"spec", c.pod_spec}}), c.expected);
}

// The default service account is referenced by every pod that names none.
PodTemplateReferences withDefaultAccount(PodTemplateReferences references) {
  references.service_accounts.insert("default");
  return references;
}

INSTANTIATE_TEST_SUITE_P(
    PodTemplates, ReferencesOfTest,
    testing::Values(
        ReferenceCase{"Empty", Json::object(), withDefaultAccount({})},
        ReferenceCase{"ConfigMapVolume",
                      {{"volumes", {{{"name", "v"}, {"configMap", {{"name", "cfg"}}}}}}},
                      withDefaultAccount({.config_maps = {"cfg"}})},
        ReferenceCase{"SecretVolume",
                      {{"volumes", {{{"name", "v"}, {"secret", {{"secretName", "s"}}}}}}},
                      withDefaultAccount({.secrets = {"s"}})},
        ReferenceCase{
            "ClaimVolume",
            {{"volumes", {{{"name", "v"}, {"persistentVolumeClaim", {{"claimName", "data"}}}}}}},
            withDefaultAccount({.persistent_volume_claims = {"data"}})},
        ReferenceCase{"ProjectedSources",
                      {{"volumes",
                        {{{"name", "v"},
                          {"projected",
                           {{"sources",
                             {{{"configMap", {{"name", "c1"}}}},
                              {{"secret", {{"name", "s1"}}}},
                              {{"serviceAccountToken", {{"path", "t"}}}}}}}}}}}},
                      withDefaultAccount({.config_maps = {"c1"}, .secrets = {"s1"}})},
        ReferenceCase{"EnvValueFrom",
                      {{"containers",
                        {{{"name", "app"},
                          {"env",
                           {{{"name", "A"}, {"valueFrom", {{"configMapKeyRef", {{"name", "c"}}}}}},
                            {{"name", "B"}, {"valueFrom", {{"secretKeyRef", {{"name", "s"}}}}}},
                            {{"name", "C"}, {"value", "plain"}}}}}}}},
                      withDefaultAccount({.config_maps = {"c"}, .secrets = {"s"}})},
        ReferenceCase{"EnvFromInInitAndEphemeralContainers",
                      {{"initContainers",
                        {{{"name", "init"}, {"envFrom", {{{"configMapRef", {{"name", "c"}}}}}}}}},
                       {"ephemeralContainers",
                        {{{"name", "debug"}, {"envFrom", {{{"secretRef", {{"name", "s"}}}}}}}}}},
                      withDefaultAccount({.config_maps = {"c"}, .secrets = {"s"}})},
        ReferenceCase{"ImagePullSecrets",
                      {{"imagePullSecrets", {{{"name", "registry"}}}}},
                      withDefaultAccount({.secrets = {"registry"}})},
        ReferenceCase{"ServiceAccountName",
                      {{"serviceAccountName", "runner"}},
                      {.service_accounts = {"runner"}}},
        ReferenceCase{
            "DeprecatedServiceAccount", {{"serviceAccount", "old"}}, {.service_accounts = {"old"}}},
        ReferenceCase{"WrongTypesAreSkipped",
                      {{"volumes", {{{"configMap", "not an object"}}, 7}},
                       {"containers", "not a list"},
                       {"imagePullSecrets", {{{"name", 3}}}}},
                      withDefaultAccount({})}),
    [](const testing::TestParamInfo<ReferenceCase>& param_info) { return param_info.param.name; });

TEST(PodTemplateOfFederatedTest, FindsTheTemplatesOfWorkloadsAndCronJobs) {
  const Json deployment = {
      {"spec", {{"template", {{"spec", {{"template", {{"spec", {{"a", 1}}}}}}}}}}}};
  const Json cron_job = {
      {"spec",
       {{"template",
         {{"spec", {{"jobTemplate", {{"spec", {{"template", {{"spec", {{"b", 2}}}}}}}}}}}}}}}};
  const Json config_map = {{"spec", {{"template", {{"data", {{"k", "v"}}}}}}}};
  ASSERT_NE(podTemplateOfFederated(deployment), nullptr);
  EXPECT_EQ(podTemplateOfFederated(deployment)->at("spec").at("a"), 1);
  ASSERT_NE(podTemplateOfFederated(cron_job), nullptr);
  EXPECT_EQ(podTemplateOfFederated(cron_job)->at("spec").at("b"), 2);
  EXPECT_EQ(podTemplateOfFederated(config_map), nullptr);
}

TEST(ReferencedNamesOfKindTest, PicksTheSetOfTheFollowersKind) {
  const PodTemplateReferences references{.config_maps = {"c"},
                                         .secrets = {"s"},
                                         .service_accounts = {"a"},
                                         .persistent_volume_claims = {"p"}};
  EXPECT_THAT(*referencedNamesOfKind(references, "ConfigMap"), ElementsAre("c"));
  EXPECT_THAT(*referencedNamesOfKind(references, "Secret"), ElementsAre("s"));
  EXPECT_THAT(*referencedNamesOfKind(references, "ServiceAccount"), ElementsAre("a"));
  EXPECT_THAT(*referencedNamesOfKind(references, "PersistentVolumeClaim"), ElementsAre("p"));
  EXPECT_EQ(referencedNamesOfKind(references, "Service"), nullptr);
  EXPECT_TRUE(referenceableKind("Secret"));
  EXPECT_FALSE(referenceableKind("Service"));
}

Json annotated(const std::string& value) {
  return {{"metadata", {{"annotations", {{kPlacementFollowsAnnotation, value}}}}}};
}

TEST(FollowsModeTest, OnlyTheWordWorkloadsTurnsItOn) {
  EXPECT_EQ(followsModeOf(Json{{"metadata", Json::object()}}), FollowsMode::kOwnPlacement);
  EXPECT_EQ(followsModeOf(annotated("workloads")), FollowsMode::kWorkloads);
  EXPECT_EQ(followsModeOf(annotated("Workloads")), FollowsMode::kInvalid);
  EXPECT_EQ(followsModeOf(annotated("")), FollowsMode::kInvalid);
}

TEST(FollowerPlacementTest, IsTheUnionOfTheWorkloadsPlacements) {
  EXPECT_THAT(followerPlacement({}), IsEmpty());
  EXPECT_THAT(followerPlacement({{"FederatedDeployment \"a\"", {"member1", "member2"}},
                                 {"FederatedDeployment \"b\"", {"member2", "member3"}},
                                 {"FederatedJob \"c\"", {}}}),
              ElementsAre("member1", "member2", "member3"));
}

}  // namespace
}  // namespace kf::sync
