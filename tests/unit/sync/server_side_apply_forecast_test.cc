// Server-side apply as a propagation pass decides it, seen through the forecast that `kubefedctl
// plan` prints (the same decideUpdate as the pass).

#include <gtest/gtest.h>

#include "sync/controller/pass_inputs.h"
#include "sync/controller/propagation_forecast.h"

namespace kf::sync {
namespace {

SyncTypeInfo ssaDeploymentType() {
  SyncTypeInfo type;
  type.target_type.kind = "Deployment";
  type.target_type.group = "apps";
  type.target_type.version = "v1";
  type.target_type.plural_name = "deployments";
  type.target_type.scope = "Namespaced";
  type.federated_type.kind = "FederatedDeployment";
  type.federated_type.group = "types.kubefed.io";
  type.federated_type.version = "v1beta1";
  type.federated_type.plural_name = "federateddeployments";
  type.federated_type.scope = "Namespaced";
  type.target_resource = {"apps", "v1", "deployments", true};
  type.federated_resource = {"types.kubefed.io", "v1beta1", "federateddeployments", true};
  type.namespace_scoped_control_plane = true;  // placement needs no FederatedNamespace
  return type;
}

Json ssaFederated(const std::string& image) {
  return {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedDeployment"},
          {"metadata",
           {{"name", "web"},
            {"namespace", "prod"},
            {"generation", 1},
            {"annotations", {{"kubefed-cpp.io/apply", "ServerSide"}}}}},
          {"spec",
           {{"template",
             {{"spec",
               {{"replicas", 2},
                {"template", {{"spec", {{"containers", {{{"name", "c"}, {"image", image}}}}}}}}}}}},
            {"placement", {{"clusters", {{{"name", "m1"}}}}}}}}};
}

// The member after `kubectl scale --replicas=5`: generation 2, replicas owned by kubectl.
Json ssaScaledMember() {
  Json fields_ours = {{"f:metadata", {{"f:labels", {{"f:kubefed.io/managed", Json::object()}}}}},
                      {"f:spec",
                       {{"f:template",
                         {{"f:spec",
                           {{"f:containers",
                             {{"k:{\"name\":\"c\"}",
                               {{"f:image", Json::object()}, {"f:name", Json::object()}}}}}}}}}}}};
  return {{"apiVersion", "apps/v1"},
          {"kind", "Deployment"},
          {"metadata",
           {{"name", "web"},
            {"namespace", "prod"},
            {"generation", 2},
            {"resourceVersion", "9"},
            {"labels", {{"kubefed.io/managed", "true"}}},
            {"annotations", {{"deployment.kubernetes.io/revision", "1"}}},
            {"managedFields",
             {{{"manager", "kubefed"},
               {"operation", "Apply"},
               {"time", "2026-01-01T00:00:00Z"},
               {"fieldsV1", fields_ours}},
              {{"manager", "kubectl"},
               {"operation", "Update"},
               {"subresource", "scale"},
               {"time", "2026-01-02T00:00:00Z"},
               {"fieldsV1", {{"f:spec", {{"f:replicas", Json::object()}}}}}}}}}},
          {"spec",
           {{"replicas", 5},
            {"template",
             {{"spec",
               {{"containers",
                 {{{"name", "c"}, {"image", "v1"}, {"imagePullPolicy", "IfNotPresent"}}}}}}}}}}};
}

ForecastInputs ssaInputs(const Json& federated_object, bool recorded_for_current) {
  ForecastInputs in;
  in.type = ssaDeploymentType();
  in.federated_object = federated_object;
  ClusterSnapshot m1;
  m1.name = "m1";
  m1.ready = true;
  in.clusters = {m1};
  in.members = {{"m1", ssaScaledMember()}};
  const VersionHashes hashes = versionHashesOf(federated_object);
  core::PropagatedVersionStatus recorded;
  recorded.template_version = recorded_for_current ? hashes.template_version : "older";
  recorded.overrides_version = hashes.overrides_version;
  recorded.cluster_versions = {{"m1", "gen:1", {}}};
  in.recorded = recorded;
  return in;
}

// Verifies that a member scaled by another manager keeps its replicas: no write, the field and
// its owner reported, the member's version recorded as seen.
TEST(ServerSideApplyForecastTest, AFieldAnotherManagerTookIsYieldedWithoutAWrite) {
  const PropagationForecast forecast = forecastPropagation(ssaInputs(ssaFederated("v1"), true));
  ASSERT_EQ(forecast.clusters.size(), 1u);
  const MemberForecast& m1 = forecast.clusters[0];
  EXPECT_EQ(m1.action, MemberAction::kNone) << m1.reason;
  EXPECT_EQ(m1.status, PropagationStatus::kOk);
  EXPECT_TRUE(m1.server_side);
  EXPECT_EQ(m1.yielded, (std::vector<OwnedField>{{"/spec/replicas", "kubectl"}}));
  EXPECT_EQ(forecast.memberWrites(), 0);
}

// Verifies that a template change still reaches the member, as an apply without the yielded
// field and without what the server sets.
TEST(ServerSideApplyForecastTest, ATemplateChangeIsAppliedWithoutTheYieldedField) {
  const PropagationForecast forecast = forecastPropagation(ssaInputs(ssaFederated("v2"), false));
  const MemberForecast& m1 = forecast.clusters[0];
  EXPECT_EQ(m1.action, MemberAction::kUpdate);
  EXPECT_TRUE(m1.server_side);
  EXPECT_EQ(m1.yielded, (std::vector<OwnedField>{{"/spec/replicas", "kubectl"}}));
  EXPECT_FALSE(m1.desired["spec"].contains("replicas")) << m1.desired.dump();
  EXPECT_EQ(m1.desired["spec"]["template"]["spec"]["containers"][0]["image"], "v2");
  EXPECT_FALSE(m1.desired["metadata"].contains("resourceVersion"));
  EXPECT_FALSE(m1.desired["metadata"].contains("annotations")) << "nothing retained";
}

// Verifies that without the annotation the same member is written back whole, as KubeFed does.
TEST(ServerSideApplyForecastTest, WithoutItTheMemberIsWrittenBackAsKubeFedDoes) {
  Json federated_object = ssaFederated("v1");
  federated_object["metadata"].erase("annotations");
  const PropagationForecast forecast = forecastPropagation(ssaInputs(federated_object, true));
  const MemberForecast& m1 = forecast.clusters[0];
  EXPECT_EQ(m1.action, MemberAction::kUpdate);
  EXPECT_FALSE(m1.server_side);
  EXPECT_EQ(m1.desired["spec"]["replicas"], 2);
  EXPECT_EQ(m1.desired["metadata"]["resourceVersion"], "9");
}

}  // namespace
}  // namespace kf::sync
