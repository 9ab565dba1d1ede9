// The drift policy as a propagation pass applies it, seen through the forecast that `kubefedctl
// plan` prints (the same decideUpdate as the pass).

#include <gtest/gtest.h>

#include "sync/controller/pass_inputs.h"
#include "sync/controller/propagation_forecast.h"
#include "tests/unit/sync/forecast_type.h"

namespace kf::sync {
namespace {

Json driftFederated(const std::string& drift_mode) {
  Json object = {{"apiVersion", "types.kubefed.io/v1beta1"},
                 {"kind", "FederatedConfigMap"},
                 {"metadata", {{"name", "web"}, {"namespace", "prod"}, {"generation", 1}}},
                 {"spec",
                  {{"template", {{"data", {{"key", "v1"}}}}},
                   {"placement", {{"clusters", {{{"name", "m1"}}, {{"name", "m2"}}}}}}}}};
  if (!drift_mode.empty()) object["metadata"]["annotations"][kDriftAnnotation] = drift_mode;
  return object;
}

// A managed member ConfigMap at `resource_version`; `editor` last wrote data.key when not "".
Json driftMember(const std::string& resource_version, const std::string& value,
                 const std::string& editor = "") {
  Json managed_fields = {{{"manager", "kubefed-cpp"},
                          {"operation", "Update"},
                          {"time", "2026-01-01T00:00:00Z"},
                          {"fieldsV1", {{"f:data", {{"f:key", Json::object()}}}}}}};
  if (!editor.empty()) {
    managed_fields.push_back({{"manager", editor},
                              {"operation", "Update"},
                              {"time", "2026-01-02T00:00:00Z"},
                              {"fieldsV1", {{"f:data", {{"f:key", Json::object()}}}}}});
  }
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata",
           {{"name", "web"},
            {"namespace", "prod"},
            {"resourceVersion", resource_version},
            {"labels", {{"kubefed.io/managed", "true"}}},
            {"managedFields", managed_fields}}},
          {"data", {{"key", value}}}};
}

// m1 edited by hand after the controller wrote rv 5; m2 as written.
ForecastInputs driftInputsWithAHandEdit(const Json& federated_object) {
  ForecastInputs in;
  in.type = forecastConfigMapType();
  in.federated_object = federated_object;
  ClusterSnapshot m1;
  m1.name = "m1";
  m1.ready = true;
  ClusterSnapshot m2 = m1;
  m2.name = "m2";
  in.clusters = {m1, m2};
  in.members = {{"m1", driftMember("7", "by hand", "kubectl-edit")},
                {"m2", driftMember("5", "v1")}};
  const VersionHashes hashes = versionHashesOf(federated_object);
  core::PropagatedVersionStatus recorded;
  recorded.template_version = hashes.template_version;
  recorded.overrides_version = hashes.overrides_version;
  recorded.cluster_versions = {{"m1", "rv:5", {}}, {"m2", "rv:5", {}}};
  in.recorded = recorded;
  return in;
}

const DriftedField kHandEdit{"/data/key", Json("v1"), Json("by hand"), "kubectl-edit",
                             "2026-01-02T00:00:00Z"};

// Verifies ReportOnly: the drifted member is reported (path, both values, editor) and left
// alone with the status Drifted; the other member is untouched.
TEST(DriftForecastTest, ReportOnlyReportsAndLeavesTheMember) {
  const PropagationForecast forecast =
      forecastPropagation(driftInputsWithAHandEdit(driftFederated("ReportOnly")));
  ASSERT_EQ(forecast.clusters.size(), 2u);
  const MemberForecast& m1 = forecast.clusters[0];
  EXPECT_EQ(m1.action, MemberAction::kNone);
  EXPECT_EQ(m1.status, PropagationStatus::kDrifted);
  EXPECT_EQ(m1.drift, std::vector<DriftedField>{kHandEdit});
  EXPECT_EQ(forecast.clusters[1].action, MemberAction::kNone);
  EXPECT_EQ(forecast.clusters[1].status, PropagationStatus::kOk);
  EXPECT_TRUE(forecast.clusters[1].drift.empty());
  EXPECT_EQ(forecast.memberWrites(), 0);
  EXPECT_EQ(forecast.reason, AggregateReason::kCheckClusters);
  EXPECT_EQ(forecast.status["clusters"][0]["status"], "Drifted");
}

// Verifies ReportAndRevert: written back, and reported.
TEST(DriftForecastTest, ReportAndRevertWritesBackAndReports) {
  const PropagationForecast forecast =
      forecastPropagation(driftInputsWithAHandEdit(driftFederated("ReportAndRevert")));
  const MemberForecast& m1 = forecast.clusters[0];
  EXPECT_EQ(m1.action, MemberAction::kUpdate);
  EXPECT_EQ(m1.status, PropagationStatus::kOk);
  EXPECT_EQ(m1.desired["data"]["key"], "v1");
  EXPECT_EQ(m1.drift, std::vector<DriftedField>{kHandEdit});
  EXPECT_EQ(forecast.reason, AggregateReason::kSuccess);
}

// Verifies KubeFed's default: written back, nothing reported.
TEST(DriftForecastTest, RevertIsKubeFedsSilentWriteBack) {
  for (const char* mode : {"", "Revert"}) {
    const PropagationForecast forecast =
        forecastPropagation(driftInputsWithAHandEdit(driftFederated(mode)));
    EXPECT_EQ(forecast.clusters[0].action, MemberAction::kUpdate) << mode;
    EXPECT_TRUE(forecast.clusters[0].drift.empty()) << mode;
  }
}

// Verifies that the FederatedTypeConfig's annotation is the type's default.
TEST(DriftForecastTest, TheTypeAnnotationIsTheDefault) {
  ForecastInputs in = driftInputsWithAHandEdit(driftFederated(""));
  in.type.policy_defaults = {{kDriftAnnotation, "ReportOnly"}};
  const PropagationForecast forecast = forecastPropagation(in);
  EXPECT_EQ(forecast.clusters[0].status, PropagationStatus::kDrifted);
}

// Verifies that ignored paths are not drift: under ReportOnly nothing is written or reported.
TEST(DriftForecastTest, IgnoredPathsAreNotDrift) {
  Json object = driftFederated("ReportOnly");
  object["metadata"]["annotations"][kDriftIgnoreAnnotation] = "/data";
  const PropagationForecast forecast = forecastPropagation(driftInputsWithAHandEdit(object));
  EXPECT_EQ(forecast.clusters[0].action, MemberAction::kNone);
  EXPECT_EQ(forecast.clusters[0].status, PropagationStatus::kOk);
  EXPECT_TRUE(forecast.clusters[0].drift.empty());
}

// Verifies that a change outside the fields the template sets is not drift: ReportOnly writes
// nothing and reports nothing.
TEST(DriftForecastTest, AChangeOutsideTheTemplateIsNotDrift) {
  ForecastInputs in = driftInputsWithAHandEdit(driftFederated("ReportOnly"));
  in.members["m1"] = driftMember("7", "v1");
  in.members["m1"]["metadata"]["labels"]["added"] = "by hand";
  const PropagationForecast forecast = forecastPropagation(in);
  EXPECT_EQ(forecast.clusters[0].action, MemberAction::kNone);
  EXPECT_EQ(forecast.clusters[0].status, PropagationStatus::kOk);
  EXPECT_TRUE(forecast.clusters[0].drift.empty());
}

// Verifies that a member with no version recorded under the current template is propagated to,
// never reported as drifted (a template change, a cluster that never received the object).
TEST(DriftForecastTest, NoRecordedVersionIsAPropagationNotDrift) {
  ForecastInputs in = driftInputsWithAHandEdit(driftFederated("ReportOnly"));
  in.recorded->template_version = "an older template";
  const PropagationForecast forecast = forecastPropagation(in);
  EXPECT_EQ(forecast.clusters[0].action, MemberAction::kUpdate);
  EXPECT_TRUE(forecast.clusters[0].drift.empty());
  EXPECT_EQ(forecast.clusters[0].status, PropagationStatus::kOk);
}

// Verifies that an invalid annotation leaves KubeFed's behaviour in place.
TEST(DriftForecastTest, AnInvalidPolicyIsKubeFeds) {
  const PropagationForecast forecast =
      forecastPropagation(driftInputsWithAHandEdit(driftFederated("Off")));
  EXPECT_EQ(forecast.clusters[0].action, MemberAction::kUpdate);
  EXPECT_TRUE(forecast.clusters[0].drift.empty());
}

}  // namespace
}  // namespace kf::sync
