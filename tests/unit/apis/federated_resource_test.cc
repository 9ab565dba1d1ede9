#include "apis/federated/federated_resource.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>

namespace kf::federated {
namespace {

using testing::ElementsAre;

Json withPlacement(const Json& placement) { return Json{{"spec", {{"placement", placement}}}}; }

TEST(PlacementTest, ClustersAbsentEmptyAndListedDiffer) {
  EXPECT_FALSE(readPlacement(withPlacement(Json::object())).value().clusters.has_value());
  EXPECT_FALSE(readPlacement(withPlacement({{"clusters", nullptr}})).value().clusters.has_value());
  const auto empty = readPlacement(withPlacement({{"clusters", Json::array()}})).value();
  ASSERT_TRUE(empty.clusters.has_value());
  EXPECT_TRUE(empty.clusters->empty());
  const auto listed =
      readPlacement(withPlacement(Json::parse(R"({"clusters": [{"name": "a"}, {"name": "b"}]})")))
          .value();
  EXPECT_THAT(*listed.clusters, ElementsAre("a", "b"));
}

TEST(PlacementTest, SelectorAbsentNullAndEmptyDiffer) {
  EXPECT_FALSE(readPlacement(withPlacement(Json::object())).value().cluster_selector.has_value());
  EXPECT_FALSE(readPlacement(withPlacement({{"clusterSelector", nullptr}}))
                   .value()
                   .cluster_selector.has_value());
  const auto all = readPlacement(withPlacement({{"clusterSelector", Json::object()}})).value();
  ASSERT_TRUE(all.cluster_selector.has_value());
  EXPECT_TRUE(all.cluster_selector->match_labels.empty());
  EXPECT_TRUE(all.cluster_selector->match_expressions.empty());
}

TEST(PlacementTest, ReadsSelector) {
  const auto placement = readPlacement(withPlacement(Json::parse(R"({
    "clusterSelector": {
      "matchLabels": {"foo": "bar"},
      "matchExpressions": [{"key": "env", "operator": "In", "values": ["a", "b"]},
                           {"key": "x", "operator": "Exists"}]
    }})")));
  ASSERT_TRUE(placement) << placement.error().message;
  const auto& selector = *placement.value().cluster_selector;
  EXPECT_EQ(selector.match_labels.at("foo"), "bar");
  ASSERT_EQ(selector.match_expressions.size(), 2u);
  EXPECT_EQ(selector.match_expressions[0].op, "In");
  EXPECT_THAT(selector.match_expressions[0].values, ElementsAre("a", "b"));
  EXPECT_TRUE(selector.match_expressions[1].values.empty());
}

TEST(PlacementTest, NoSpecOrPlacementMeansNothingSelected) {
  const auto none = readPlacement(Json{{"metadata", {{"name", "x"}}}}).value();
  EXPECT_FALSE(none.clusters.has_value());
  EXPECT_FALSE(none.cluster_selector.has_value());
  EXPECT_FALSE(readPlacement(Json{{"spec", Json::object()}}).value().clusters.has_value());
}

struct BadCase {
  Json object;
  std::string message;
};

// Readable test names in failure output instead of a byte dump.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.object.dump(); }

class FederatedResourceErrorTest : public testing::TestWithParam<BadCase> {};

TEST_P(FederatedResourceErrorTest, NamesTheField) {
  const auto spec = readFederatedSpec(GetParam().object);
  ASSERT_FALSE(spec);
  EXPECT_EQ(spec.error().message, GetParam().message);
  EXPECT_EQ(spec.error().reason, Reason::kBadRequest);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, FederatedResourceErrorTest,
    testing::Values(
        BadCase{Json::array(), "expected object"},
        BadCase{Json{{"spec", "x"}}, "spec: expected object"},
        BadCase{Json{{"spec", {{"template", 1}}}}, "spec.template: expected object"},
        BadCase{withPlacement(1), "spec.placement: expected object"},
        BadCase{withPlacement({{"clusters", {{"x", 1}}}}),
                "spec.placement.clusters: expected array"},
        BadCase{withPlacement(Json::parse(R"({"clusters": [{"name": "a"}, {"name": 2}]})")),
                "spec.placement.clusters[1].name: expected string"},
        BadCase{withPlacement(Json::parse(R"({"clusters": ["a"]})")),
                "spec.placement.clusters[0]: expected object"},
        BadCase{withPlacement({{"clusterSelector", {{"matchLabels", {{"k", 1}}}}}}),
                "spec.placement.clusterSelector.matchLabels[k]: expected string"},
        BadCase{withPlacement(Json::parse(
                    R"({"clusterSelector": {"matchExpressions": [{"key": "k", "values": [1]}]}})")),
                "spec.placement.clusterSelector.matchExpressions[0].values[0]: expected string"},
        BadCase{Json::parse(R"({"spec": {"overrides": [{"clusterName": "a",
                 "clusterOverrides": [{"path": 3}]}]}})"),
                "spec.overrides[0].clusterOverrides[0].path: expected string"},
        BadCase{Json::parse(R"({"spec": {"overrides": {}}})"), "spec.overrides: expected array"},
        BadCase{Json::parse(R"({"spec": {"retainReplicas": "true"}})"),
                "spec.retainReplicas: expected boolean"}));

TEST(FederatedSpecTest, ReadsEverything) {
  const Json object = Json::parse(R"({
    "apiVersion": "types.kubefed.io/v1beta1", "kind": "FederatedDeployment",
    "metadata": {"name": "web", "namespace": "ns"},
    "spec": {
      "template": {"spec": {"replicas": 3}},
      "placement": {"clusters": [{"name": "c1"}]},
      "overrides": [
        {"clusterName": "c1", "clusterOverrides": [
          {"path": "/spec/replicas", "value": 5},
          {"op": "remove", "path": "/metadata/labels"},
          {"op": "add", "path": "/x", "value": null},
          {"op": "add", "path": "/y", "value": {"a": [1]}}
        ]},
        {"clusterName": "c2"}
      ],
      "retainReplicas": true
    }
  })");
  const auto spec = readFederatedSpec(object);
  ASSERT_TRUE(spec) << spec.error().message;
  ASSERT_TRUE(spec.value().template_json.has_value());
  EXPECT_EQ((*spec.value().template_json)["spec"]["replicas"], 3);
  EXPECT_THAT(*spec.value().placement.clusters, ElementsAre("c1"));
  const auto& overrides = spec.value().overrides;
  ASSERT_EQ(overrides.size(), 2u);
  EXPECT_EQ(overrides[0].cluster_name, "c1");
  ASSERT_EQ(overrides[0].cluster_overrides.size(), 4u);
  EXPECT_EQ(overrides[0].cluster_overrides[0].op, "");
  EXPECT_EQ(overrides[0].cluster_overrides[0].value, Json(5));
  EXPECT_EQ(overrides[0].cluster_overrides[1].op, "remove");
  EXPECT_FALSE(overrides[0].cluster_overrides[1].value.has_value());
  EXPECT_FALSE(overrides[0].cluster_overrides[2].value.has_value());
  EXPECT_EQ(overrides[0].cluster_overrides[3].value, Json::parse(R"({"a": [1]})"));
  EXPECT_TRUE(overrides[1].cluster_overrides.empty());
  EXPECT_TRUE(spec.value().retain_replicas);
}

TEST(FederatedSpecTest, AbsentPartsReadAsNone) {
  const auto spec = readFederatedSpec(Json{{"spec", Json::object()}}).value();
  EXPECT_FALSE(spec.template_json.has_value());
  EXPECT_TRUE(spec.overrides.empty());
  EXPECT_FALSE(spec.retain_replicas);
  EXPECT_FALSE(readTemplate(Json{{"spec", {{"template", nullptr}}}}).value().has_value());
  EXPECT_TRUE(readTemplate(Json{{"spec", {{"template", Json::object()}}}}).value().has_value());
}

}  // namespace
}  // namespace kf::federated
