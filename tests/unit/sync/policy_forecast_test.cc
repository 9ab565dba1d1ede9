// The forecast of `kubefedctl plan` with override policies: which policy changes what, in which
// cluster, and that the members are written again when a policy changes or goes.

#include <gtest/gtest.h>

#include "sync/controller/pass_inputs.h"
#include "sync/controller/policy_inputs.h"
#include "sync/controller/propagation_forecast.h"
#include "tests/unit/sync/forecast_type.h"

namespace kf::sync {
namespace {

Json policyForecastFederated() {
  return {
      {"apiVersion", "types.kubefed.io/v1beta1"},
      {"kind", "FederatedConfigMap"},
      {"metadata",
       {{"name", "web"}, {"namespace", "prod"}, {"generation", 1}, {"labels", {{"tier", "web"}}}}},
      {"spec",
       {{"template", {{"data", {{"registry", "default"}}}}},
        {"placement", {{"clusters", {{{"name", "eu1"}}, {{"name", "us1"}}}}}}}}};
}

Json policyForecastMember(const std::string& value) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata",
           {{"name", "web"},
            {"namespace", "prod"},
            {"resourceVersion", "5"},
            {"labels", {{"kubefed.io/managed", "true"}}}}},
          {"data", {{"registry", value}}}};
}

Json regionalRegistryPolicy(const char* kind = "FederatedConfigMap") {
  return {{"apiVersion", "policy.kubefed-cpp.io/v1alpha1"},
          {"kind", "OverridePolicy"},
          {"metadata", {{"name", "eu-registry"}, {"namespace", "prod"}}},
          {"spec",
           {{"resourceSelector", {{"kind", kind}}},
            {"clusterSelector", {{"matchLabels", {{"region", "eu"}}}}},
            {"overrides",
             {{{"path", "/data/registry"}, {"value", "registry-${CLUSTER_LABEL:region}"}}}}}}};
}

ForecastInputs policyForecastInputs() {
  ForecastInputs in;
  in.type = forecastConfigMapType();
  in.federated_object = policyForecastFederated();
  ClusterSnapshot eu{.name = "eu1", .ready = true, .labels = {{"region", "eu"}}, .object = nullptr};
  ClusterSnapshot us{.name = "us1", .ready = true, .labels = {{"region", "us"}}, .object = nullptr};
  in.clusters = {eu, us};
  in.members = {{"eu1", policyForecastMember("default")}, {"us1", policyForecastMember("default")}};
  // Versions recorded for KubeFed's hashes: what the controller wrote before any policy.
  const VersionHashes hashes = versionHashesOf(in.federated_object);
  core::PropagatedVersionStatus recorded;
  recorded.template_version = hashes.template_version;
  recorded.overrides_version = hashes.overrides_version;
  recorded.cluster_versions = {{"eu1", "rv:5", {}}, {"us1", "rv:5", {}}};
  in.recorded = recorded;
  return in;
}

const MemberForecast& policyForecastOf(const PropagationForecast& forecast,
                                       const std::string& cluster) {
  for (const auto& member : forecast.clusters) {
    if (member.cluster == cluster) return member;
  }
  static const MemberForecast kNone;
  ADD_FAILURE() << "no forecast for " << cluster;
  return kNone;
}

// Verifies that without policies the forecast is KubeFed's: nothing to write.
TEST(PolicyForecastTest, WithoutPoliciesNothingChanges) {
  const PropagationForecast forecast = forecastPropagation(policyForecastInputs());
  EXPECT_EQ(forecast.memberWrites(), 0);
  EXPECT_TRUE(policyForecastOf(forecast, "eu1").policy_patches.empty());
}

// Verifies that a new policy rewrites the selected cluster only, names the policy and its
// expanded override, and leaves the other cluster's object as it is.
TEST(PolicyForecastTest, NamesThePolicyAndItsChange) {
  ForecastInputs in = policyForecastInputs();
  in.override_policies = {regionalRegistryPolicy()};
  const PropagationForecast forecast = forecastPropagation(in);
  const MemberForecast& eu = policyForecastOf(forecast, "eu1");
  EXPECT_EQ(eu.action, MemberAction::kUpdate);
  ASSERT_EQ(eu.policy_patches.size(), 1U);
  EXPECT_EQ(eu.policy_patches[0].policy, "OverridePolicy \"prod/eu-registry\"");
  EXPECT_EQ(eu.policy_patches[0].overrides.at(0).value, Json("registry-eu"));
  EXPECT_EQ(eu.desired["data"]["registry"], "registry-eu");
  const MemberForecast& us = policyForecastOf(forecast, "us1");
  EXPECT_TRUE(us.policy_patches.empty());
  EXPECT_EQ(us.action, MemberAction::kNone);
}

// Verifies that a policy for another federated kind changes nothing, and an invalid one is
// listed as applied nowhere.
TEST(PolicyForecastTest, OtherKindsAndInvalidPoliciesApplyNowhere) {
  ForecastInputs in = policyForecastInputs();
  Json invalid = regionalRegistryPolicy();
  invalid["spec"]["overrides"][0]["value"] = "${REGION}";
  in.override_policies = {regionalRegistryPolicy("FederatedDeployment"), invalid};
  const PropagationForecast forecast = forecastPropagation(in);
  EXPECT_EQ(forecast.memberWrites(), 0);
  ASSERT_EQ(forecast.invalid_policies.size(), 1U);
  EXPECT_NE(forecast.invalid_policies[0].find("unknown variable ${REGION}"), std::string::npos)
      << forecast.invalid_policies[0];
}

// Verifies that each cluster's recorded version carries its policies' fingerprint: with the
// policy applied and its versions recorded nothing is written; once it is gone the cluster it
// changed is written back, and only that one.
TEST(PolicyForecastTest, RemovingAPolicyRewritesTheMembersItChanged) {
  ForecastInputs in = policyForecastInputs();
  in.override_policies = {regionalRegistryPolicy()};
  in.members["eu1"] = policyForecastMember("registry-eu");
  std::vector<policy::OverridePolicy> parsed = {
      policy::parseOverridePolicy(regionalRegistryPolicy()).value()};
  const PolicyPatches patches =
      policyPatchesOf(in.type, in.federated_object, parsed, in.clusters, {"eu1", "us1"});
  const ClusterVersions recorded =
      versionsWithPolicies({{"eu1", "rv:5"}, {"us1", "rv:5"}}, patches);
  in.recorded->cluster_versions = {{"eu1", recorded.at("eu1"), {}},
                                   {"us1", recorded.at("us1"), {}}};
  EXPECT_EQ(forecastPropagation(in).memberWrites(), 0);

  in.override_policies.clear();
  const PropagationForecast without = forecastPropagation(in);
  EXPECT_EQ(policyForecastOf(without, "eu1").action, MemberAction::kUpdate);
  EXPECT_EQ(policyForecastOf(without, "eu1").desired["data"]["registry"], "default");
  EXPECT_EQ(policyForecastOf(without, "us1").action, MemberAction::kNone);
}

}  // namespace
}  // namespace kf::sync
