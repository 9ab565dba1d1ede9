#include "federation/scheduling/candidates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/json.h"

namespace kf::scheduling {
namespace {

using test::parsed;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

const std::vector<ReadyCluster> kReady = {
    {"c3", {{"region", "eu"}, {"tier", "gold"}}},
    {"c1", {{"region", "eu"}}},
    {"c2", {{"region", "us"}}},
};

Json withPlacement(const char* placement, const char* ns = "shop", const char* name = "web") {
  return Json{{"kind", "FederatedDeployment"},
              {"metadata", {{"name", name}, {"namespace", ns}}},
              {"spec", {{"placement", parsed(placement)}}}};
}

Json federatedNamespace(const char* placement) { return withPlacement(placement, "shop", "shop"); }

std::vector<std::string> selected(const char* object_placement, const char* namespace_placement) {
  const Json ns = federatedNamespace(namespace_placement);
  auto result = clustersSelectedForScheduling(kReady, withPlacement(object_placement), &ns);
  EXPECT_TRUE(result) << result.error().message;
  return result ? result.value() : std::vector<std::string>{"<error>"};
}

// Verifies that only FederatedDeployment and FederatedReplicaSet are scheduled.
TEST(CandidatesTest, OnlyDeploymentsAndReplicaSetsAreScheduled) {
  EXPECT_TRUE(isSchedulableTargetKind("FederatedDeployment"));
  EXPECT_TRUE(isSchedulableTargetKind("FederatedReplicaSet"));
  EXPECT_FALSE(isSchedulableTargetKind("FederatedStatefulSet"));
  EXPECT_FALSE(isSchedulableTargetKind("Deployment"));
  EXPECT_FALSE(isSchedulableTargetKind(""));
}

// Verifies that without intersection the candidates are the ready clusters, sorted.
TEST(CandidatesTest, ReadyClustersAreTheCandidates) {
  EXPECT_THAT(readyClusterNames(kReady), ElementsAre("c1", "c2", "c3"));
  EXPECT_THAT(readyClusterNames({}), IsEmpty());
}

// Verifies the intersection of both selectors with the ready clusters.
TEST(CandidatesTest, IntersectsBothSelectors) {
  EXPECT_THAT(selected(R"({"clusterSelector": {"matchLabels": {"region": "eu"}}})",
                       R"({"clusterSelector": {}})"),
              ElementsAre("c1", "c3"));
  EXPECT_THAT(selected(R"({"clusterSelector": {"matchLabels": {"region": "eu"}}})",
                       R"({"clusterSelector": {"matchLabels": {"tier": "gold"}}})"),
              ElementsAre("c3"));
  EXPECT_THAT(selected(R"({"clusterSelector": {}})", R"({"clusterSelector": {}})"),
              ElementsAre("c1", "c2", "c3"));
}

// Verifies that both placements are evaluated selector-only: cluster lists are ignored.
TEST(CandidatesTest, ClusterListsAreIgnored) {
  EXPECT_THAT(
      selected(
          R"({"clusters": [{"name": "c2"}], "clusterSelector": {"matchLabels": {"region": "eu"}}})",
          R"({"clusters": [{"name": "c2"}], "clusterSelector": {}})"),
      ElementsAre("c1", "c3"));
}

// Verifies KubeFed's quirk: a FederatedNamespace placed with a cluster list and no selector
// leaves no candidates; so does an object without a selector.
TEST(CandidatesTest, NoSelectorSelectsNothing) {
  EXPECT_THAT(selected(R"({"clusterSelector": {}})", R"({"clusters": [{"name": "c1"}]})"),
              IsEmpty());
  EXPECT_THAT(selected(R"({"clusters": [{"name": "c1"}]})", R"({"clusterSelector": {}})"),
              IsEmpty());
  EXPECT_THAT(selected(R"({"clusterSelector": null})", R"({"clusterSelector": {}})"), IsEmpty());
}

// Verifies that a missing FederatedNamespace is an error naming the namespace.
TEST(CandidatesTest, MissingFederatedNamespaceFails) {
  auto result =
      clustersSelectedForScheduling(kReady, withPlacement(R"({"clusterSelector": {}})"), nullptr);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            "intersectWithClusterSelector needs the FederatedNamespace of namespace \"shop\", and "
            "there is none");
}

// Verifies that malformed placements and invalid selectors fail naming the object.
TEST(CandidatesTest, BadPlacementsFailNamingTheObject) {
  const Json ns = federatedNamespace(R"({"clusterSelector": {}})");
  auto result = clustersSelectedForScheduling(
      kReady, withPlacement(R"({"clusterSelector": "everything"})"), &ns);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            "placement of federated object \"shop/web\": spec.placement.clusterSelector: expected "
            "object");

  const Json bad_ns =
      federatedNamespace(R"({"clusterSelector": {"matchLabels": {"not a key": "x"}}})");
  result =
      clustersSelectedForScheduling(kReady, withPlacement(R"({"clusterSelector": {}})"), &bad_ns);
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message, HasSubstr("placement of FederatedNamespace \"shop/shop\""));
  EXPECT_THAT(result.error().message, HasSubstr("invalid label key"));
}

}  // namespace
}  // namespace kf::scheduling
