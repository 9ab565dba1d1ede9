#include "sync/controller/propagation_forecast.h"

#include <gtest/gtest.h>

#include "sync/controller/pass_inputs.h"
#include "tests/unit/sync/forecast_type.h"

namespace kf::sync {
namespace {

Json forecastFederated(const Json& clusters) {
  Json placement = Json::array();
  for (const auto& name : clusters) placement.push_back({{"name", name}});
  return {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedConfigMap"},
          {"metadata", {{"name", "web"}, {"namespace", "prod"}, {"generation", 1}}},
          {"spec",
           {{"template", {{"data", {{"key", "v1"}}}}}, {"placement", {{"clusters", placement}}}}}};
}

Json forecastMember(const std::string& resource_version, bool managed = true,
                    const std::string& value = "v1") {
  Json metadata = {{"name", "web"}, {"namespace", "prod"}, {"resourceVersion", resource_version}};
  if (managed) metadata["labels"] = {{"kubefed.io/managed", "true"}};
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", metadata},
          {"data", {{"key", value}}}};
}

ClusterSnapshot forecastCluster(const std::string& name, bool ready = true) {
  ClusterSnapshot out;
  out.name = name;
  out.ready = ready;
  return out;
}

// Recorded versions for the object's current hashes.
core::PropagatedVersionStatus recordedVersionsOf(
    const Json& federated_object, const std::map<std::string, std::string>& versions) {
  const VersionHashes hashes = versionHashesOf(federated_object);
  core::PropagatedVersionStatus out;
  out.template_version = hashes.template_version;
  out.overrides_version = hashes.overrides_version;
  for (const auto& [name, version] : versions) out.cluster_versions.push_back({name, version, {}});
  return out;
}

const MemberForecast* forecastOf(const PropagationForecast& forecast, const std::string& name) {
  for (const auto& member : forecast.clusters) {
    if (member.cluster == name) return &member;
  }
  return nullptr;
}

// Verifies one forecast per kind of cluster: up to date, drifted, no longer placed, not ready,
// unreadable; a placed name that is not joined gets none (KubeFed ignores it).
TEST(PropagationForecastTest, PredictsEachClusterAsAPassDecides) {
  ForecastInputs in;
  in.type = forecastConfigMapType();
  in.federated_object = forecastFederated({"m1", "m2", "m4", "m5", "typo"});
  in.clusters = {forecastCluster("m1"), forecastCluster("m2"), forecastCluster("m3"),
                 forecastCluster("m4", false), forecastCluster("m5")};
  in.members = {{"m1", forecastMember("5")},
                {"m2", forecastMember("7", true, "by hand")},
                {"m3", forecastMember("9")}};
  in.unreadable = {{"m5", "connection refused"}};
  in.recorded =
      recordedVersionsOf(in.federated_object, {{"m1", "rv:5"}, {"m2", "rv:5"}, {"m3", "rv:9"}});

  const PropagationForecast forecast = forecastPropagation(in);
  std::vector<std::string> names;
  for (const auto& m : forecast.clusters) names.push_back(m.cluster);
  EXPECT_EQ(names, (std::vector<std::string>{"m1", "m2", "m3", "m4", "m5"}));

  EXPECT_EQ(forecastOf(forecast, "m1")->action, MemberAction::kNone);
  EXPECT_EQ(forecastOf(forecast, "m1")->status, PropagationStatus::kOk);
  const MemberForecast& drifted = *forecastOf(forecast, "m2");
  EXPECT_EQ(drifted.action, MemberAction::kUpdate);
  EXPECT_EQ(drifted.status, PropagationStatus::kOk);
  EXPECT_EQ(drifted.desired["data"]["key"], "v1");
  EXPECT_EQ(drifted.desired["metadata"]["resourceVersion"], "7");  // retained
  EXPECT_EQ(drifted.live["data"]["key"], "by hand");
  EXPECT_EQ(forecastOf(forecast, "m3")->action, MemberAction::kDelete);
  EXPECT_EQ(forecastOf(forecast, "m3")->status, PropagationStatus::kWaitingForRemoval);
  EXPECT_EQ(forecastOf(forecast, "m4")->status, PropagationStatus::kClusterNotReady);
  EXPECT_EQ(forecastOf(forecast, "m5")->action, MemberAction::kUnknown);
  EXPECT_EQ(forecastOf(forecast, "m5")->reason, "connection refused");
  EXPECT_EQ(forecastOf(forecast, "typo"), nullptr);
  EXPECT_EQ(forecast.memberWrites(), 2);
  EXPECT_EQ(forecast.reason, AggregateReason::kCheckClusters);
  EXPECT_EQ(forecast.status["observedGeneration"], 1);
}

// Verifies that changed hashes make every present member an update, and absent ones creates.
TEST(PropagationForecastTest, ChangedTemplateRewritesEveryMember) {
  ForecastInputs in;
  in.type = forecastConfigMapType();
  in.federated_object = forecastFederated({"m1", "m2"});
  in.clusters = {forecastCluster("m1"), forecastCluster("m2")};
  in.members = {{"m1", forecastMember("5")}};
  in.recorded = recordedVersionsOf(in.federated_object, {{"m1", "rv:5"}});
  in.recorded->template_version = "an older template";

  const PropagationForecast forecast = forecastPropagation(in);
  ASSERT_EQ(forecast.clusters.size(), 2u);
  EXPECT_EQ(forecast.clusters[0].action, MemberAction::kUpdate);
  EXPECT_EQ(forecast.clusters[1].action, MemberAction::kCreate);
  EXPECT_EQ(forecast.clusters[1].desired["metadata"]["labels"]["kubefed.io/managed"], "true");
  EXPECT_EQ(forecast.reason, AggregateReason::kSuccess);
}

// Verifies that an unmanaged object in the way is adopted, or refused when adoption is off.
TEST(PropagationForecastTest, UnmanagedObjectIsAdoptedUnlessDisabled) {
  ForecastInputs in;
  in.type = forecastConfigMapType();
  in.federated_object = forecastFederated({"m1"});
  in.clusters = {forecastCluster("m1")};
  in.members = {{"m1", forecastMember("3", /*managed=*/false)}};

  const PropagationForecast adopted = forecastPropagation(in);
  ASSERT_EQ(adopted.clusters.size(), 1u);
  EXPECT_EQ(adopted.clusters[0].action, MemberAction::kAdopt);
  EXPECT_EQ(adopted.clusters[0].desired["metadata"]["labels"]["kubefed.io/managed"], "true");

  in.type.skip_adopting = true;
  const PropagationForecast refused = forecastPropagation(in);
  ASSERT_EQ(refused.clusters.size(), 1u);
  EXPECT_EQ(refused.clusters[0].action, MemberAction::kNone);
  EXPECT_EQ(refused.clusters[0].status, PropagationStatus::kAlreadyExists);
  EXPECT_EQ(refused.memberWrites(), 0);
}

// Verifies that a federated object being deleted deletes its managed members, or only unlabels
// them when orphaning is enabled.
TEST(PropagationForecastTest, DeletionDeletesOrReleasesMembers) {
  ForecastInputs in;
  in.type = forecastConfigMapType();
  in.federated_object = forecastFederated({"m1"});
  in.federated_object["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  in.federated_object["metadata"]["finalizers"] = {"kubefed.io/sync-controller"};
  in.clusters = {forecastCluster("m1"), forecastCluster("m2")};
  in.members = {{"m1", forecastMember("5")}, {"m2", forecastMember("6")}};

  const PropagationForecast deleted = forecastPropagation(in);
  EXPECT_TRUE(deleted.deleting);
  ASSERT_EQ(deleted.clusters.size(), 2u);
  EXPECT_EQ(deleted.clusters[0].action, MemberAction::kDelete);
  EXPECT_EQ(deleted.clusters[1].action, MemberAction::kDelete);

  in.federated_object["metadata"]["annotations"] = {{"kubefed.io/orphan", "true"}};
  const PropagationForecast orphaned = forecastPropagation(in);
  ASSERT_EQ(orphaned.clusters.size(), 2u);
  EXPECT_EQ(orphaned.clusters[0].action, MemberAction::kRemoveManagedLabel);
}

}  // namespace
}  // namespace kf::sync
