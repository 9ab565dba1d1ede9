#include "sync/plan/placement.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "apis/meta/label_selector.h"

namespace kf::sync {
namespace {

using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

const std::vector<MemberCluster> kClusters = {
    {"cluster1", {{"foo", "bar"}, {"env", "prod"}}},
    {"cluster2", {{"env", "dev"}}},
    {"cluster3", {}},
};

Json withPlacement(const char* placement) {
  return Json{{"metadata", {{"name", "x"}, {"namespace", "ns"}}},
              {"spec", {{"placement", Json::parse(placement)}}}};
}

std::set<std::string> placed(const char* placement,
                             PlacementMode mode = PlacementMode::kClustersOrSelector) {
  auto result = computePlacement(withPlacement(placement), kClusters, mode);
  EXPECT_TRUE(result) << result.error().message;
  return result ? result.value() : std::set<std::string>{"<error>"};
}

// Verifies placement_test: names present with a {} selector select the names only.
TEST(PlacementTest, ClusterNamesWinOverSelector) {
  EXPECT_THAT(placed(R"({"clusters": [{"name": "cluster2"}], "clusterSelector": {}})"),
              ElementsAre("cluster2"));
}

// Verifies placement_test: neither names nor selector select nothing.
TEST(PlacementTest, NeitherNamesNorSelectorSelectsNothing) {
  EXPECT_THAT(placed("{}"), IsEmpty());
  EXPECT_THAT(placed(R"({"clusterSelector": null})"), IsEmpty());
  EXPECT_THAT(computePlacement(Json{{"spec", Json::object()}}, kClusters,
                               PlacementMode::kClustersOrSelector)
                  .value(),
              IsEmpty());
}

// Verifies placement_test: an empty cluster list selects nothing even with a matching selector.
TEST(PlacementTest, EmptyClusterListSelectsNothing) {
  EXPECT_THAT(placed(R"({"clusters": [], "clusterSelector": {"matchLabels": {"foo": "bar"}}})"),
              IsEmpty());
}

// Verifies placement_test: no names and an empty selector select every cluster.
TEST(PlacementTest, EmptySelectorSelectsAll) {
  EXPECT_THAT(placed(R"({"clusterSelector": {}})"),
              ElementsAre("cluster1", "cluster2", "cluster3"));
}

// Verifies placement_test: no names and selector foo=bar select only the labeled cluster.
TEST(PlacementTest, SelectorSelectsMatchingClusters) {
  EXPECT_THAT(placed(R"({"clusterSelector": {"matchLabels": {"foo": "bar"}}})"),
              ElementsAre("cluster1"));
}

// Verifies that listed names of unknown clusters are dropped silently.
TEST(PlacementTest, UnknownClusterNamesAreDropped) {
  EXPECT_THAT(placed(R"({"clusters": [{"name": "cluster3"}, {"name": "gone"}]})"),
              ElementsAre("cluster3"));
}

// Verifies that selector-only mode ignores the cluster list.
TEST(PlacementTest, SelectorOnlyModeIgnoresClusterNames) {
  const char* placement =
      R"({"clusters": [{"name": "cluster3"}], "clusterSelector": {"matchLabels": {"env": "dev"}}})";
  EXPECT_THAT(placed(placement, PlacementMode::kSelectorOnly), ElementsAre("cluster2"));
  EXPECT_THAT(placed(R"({"clusters": [{"name": "cluster3"}]})", PlacementMode::kSelectorOnly),
              IsEmpty());
}

// Verifies that an invalid selector fails placement with a message naming the field.
TEST(PlacementTest, InvalidSelectorFails) {
  auto result = computePlacement(
      withPlacement(
          R"({"clusterSelector": {"matchExpressions": [{"key": "env", "operator": "Has"}]}})"),
      kClusters, PlacementMode::kClustersOrSelector);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            "spec.placement.clusterSelector.matchExpressions[0]: \"Has\" is not a valid pod "
            "selector operator");
}

// Verifies that a malformed placement is an error, not an empty placement.
TEST(PlacementTest, MalformedPlacementFails) {
  auto result = computePlacement(withPlacement(R"({"clusters": "cluster1"})"), kClusters,
                                 PlacementMode::kClustersOrSelector);
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message, HasSubstr("spec.placement.clusters"));
}

Json federatedNamespace(const char* placement) {
  return Json{{"metadata", {{"name", "ns"}, {"namespace", "ns"}}},
              {"spec", {{"placement", Json::parse(placement)}}}};
}

// Verifies that a namespaced object is limited to its FederatedNamespace's placement.
TEST(NamespacedPlacementTest, IntersectsWithFederatedNamespace) {
  const Json ns =
      federatedNamespace(R"({"clusters": [{"name": "cluster1"}, {"name": "cluster3"}]})");
  auto result = computeNamespacedPlacement(withPlacement(R"({"clusterSelector": {}})"), &ns,
                                           kClusters, false, PlacementMode::kClustersOrSelector);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_THAT(result.value(), ElementsAre("cluster1", "cluster3"));
}

// Verifies that selector-only mode applies to the object, never to its FederatedNamespace.
TEST(NamespacedPlacementTest, FederatedNamespaceAlwaysUsesItsClusterList) {
  const Json ns = federatedNamespace(R"({"clusters": [{"name": "cluster2"}]})");
  auto result = computeNamespacedPlacement(
      withPlacement(
          R"({"clusterSelector": {"matchExpressions": [{"key": "env", "operator": "Exists"}]}})"),
      &ns, kClusters, false, PlacementMode::kSelectorOnly);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_THAT(result.value(), ElementsAre("cluster2"));
}

// Verifies that without a FederatedNamespace a cluster-scoped control plane places nothing
// while a namespace-scoped one uses the object's placement verbatim.
TEST(NamespacedPlacementTest, MissingFederatedNamespaceDependsOnScope) {
  const Json object = withPlacement(R"({"clusters": [{"name": "cluster1"}]})");
  EXPECT_THAT(computeNamespacedPlacement(object, nullptr, kClusters, false,
                                         PlacementMode::kClustersOrSelector)
                  .value(),
              IsEmpty());
  EXPECT_THAT(computeNamespacedPlacement(object, nullptr, kClusters, true,
                                         PlacementMode::kClustersOrSelector)
                  .value(),
              ElementsAre("cluster1"));
}

// Verifies that an invalid FederatedNamespace placement fails and names that object.
TEST(NamespacedPlacementTest, InvalidFederatedNamespacePlacementNamesIt) {
  const Json ns = federatedNamespace(R"({"clusterSelector": {"matchLabels": {"bad key": "x"}}})");
  auto result = computeNamespacedPlacement(withPlacement(R"({"clusterSelector": {}})"), &ns,
                                           kClusters, false, PlacementMode::kClustersOrSelector);
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message,
              HasSubstr("placement of FederatedNamespace \"ns/ns\": spec.placement.clusterSelector"
                        ".matchLabels: invalid label key \"bad key\""));
}

// Verifies that a KubeFedCluster object yields its name and string labels.
TEST(PlacementTest, MemberClusterFromObjectReadsNameAndLabels) {
  const auto cluster = memberClusterFromObject(
      Json::parse(R"({"metadata": {"name": "c1", "labels": {"region": "eu"}}})"));
  EXPECT_EQ(cluster.name, "c1");
  EXPECT_EQ(cluster.labels, (StringMap{{"region", "eu"}}));
  EXPECT_TRUE(memberClusterFromObject(Json::parse(R"({"metadata": {"name": "c2", "labels": 5}})"))
                  .labels.empty());
}

}  // namespace
}  // namespace kf::sync
