// `kubefedctl plan` of an object that follows its workloads: the forecast places it by the union
// of the referencing workloads' placements, as the pass does, and names them.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sync/controller/propagation_forecast.h"
#include "tests/unit/sync/forecast_type.h"

namespace kf::sync {
namespace {

using testing::ElementsAre;

Json followingConfigMap() {
  return {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedConfigMap"},
          {"metadata",
           {{"name", "cfg"},
            {"namespace", "prod"},
            {"generation", 1},
            {"annotations", {{kPlacementFollowsAnnotation, "workloads"}}}}},
          {"spec",
           {{"template", {{"data", {{"key", "v1"}}}}},
            {"placement", {{"clusters", {{{"name", "m3"}}}}}}}}};
}

Json deployment(const std::string& name, const std::string& config_map,
                const std::string& cluster) {
  return {{"kind", "FederatedDeployment"},
          {"metadata", {{"name", name}, {"namespace", "prod"}}},
          {"spec",
           {{"template",
             {{"spec",
               {{"template",
                 {{"spec",
                   {{"volumes", {{{"name", "v"}, {"configMap", {{"name", config_map}}}}}}}}}}}}}},
            {"placement", {{"clusters", {{{"name", cluster}}}}}}}}};
}

ClusterSnapshot readyCluster(const std::string& name) {
  ClusterSnapshot out;
  out.name = name;
  out.ready = true;
  return out;
}

std::vector<std::string> clustersOf(const PropagationForecast& forecast) {
  std::vector<std::string> names;
  for (const MemberForecast& member : forecast.clusters) names.push_back(member.cluster);
  return names;
}

TEST(FollowsForecastTest, PlacesTheObjectWhereItsReferencingWorkloadsAre) {
  ForecastInputs in;
  in.type = forecastConfigMapType();
  in.federated_object = followingConfigMap();
  in.clusters = {readyCluster("m1"), readyCluster("m2"), readyCluster("m3")};
  in.federated_workloads = {deployment("a", "cfg", "m1"), deployment("b", "cfg", "m2"),
                            deployment("other", "not-cfg", "m3")};
  const PropagationForecast forecast = forecastPropagation(in);
  // Created in m1 and m2; its own placement (m3) is ignored.
  EXPECT_THAT(clustersOf(forecast), ElementsAre("m1", "m2"));
  ASSERT_TRUE(forecast.followed_workloads);
  ASSERT_EQ(forecast.followed_workloads->size(), 2U);
  EXPECT_EQ((*forecast.followed_workloads)[0].description, "FederatedDeployment \"a\"");
  EXPECT_THAT((*forecast.followed_workloads)[0].placement, ElementsAre("m1"));
}

TEST(FollowsForecastTest, WithoutTheAnnotationTheOwnPlacementApplies) {
  ForecastInputs in;
  in.type = forecastConfigMapType();
  in.federated_object = followingConfigMap();
  in.federated_object["metadata"].erase("annotations");
  in.clusters = {readyCluster("m1"), readyCluster("m3")};
  in.federated_workloads = {deployment("a", "cfg", "m1")};
  const PropagationForecast forecast = forecastPropagation(in);
  EXPECT_THAT(clustersOf(forecast), ElementsAre("m3"));
  EXPECT_FALSE(forecast.followed_workloads);
}

}  // namespace
}  // namespace kf::sync
