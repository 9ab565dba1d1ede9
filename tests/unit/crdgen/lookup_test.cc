#include "federation/crdgen/lookup.h"

#include <gtest/gtest.h>

#include "federation/crdgen/names.h"
#include "tests/unit/crdgen/recorded_targets.h"

namespace kf {
namespace {

using namespace kf::test;

// In discovery order: the core group first.
std::vector<ApiResourceInfo> serverResources() {
  return {configMaps(),  events(), namespaces(),   secrets(),     deployments(),
          replicaSets(), jobs(),   clusterRoles(), eventsK8sIo(), widgets()};
}

std::string lookupName(const std::string& name, const std::string& version = "") {
  auto found = matchApiResource(name, version, serverResources());
  if (!found) return "error: " + found.error().message;
  return groupQualifiedName(found.value().name, found.value().group) + "/" + found.value().version;
}

TEST(LookupTest, MatchesPluralSingularKindQualifiedAndShortNamesInAnyCase) {
  EXPECT_EQ(lookupName("deployments"), "deployments.apps/v1");
  EXPECT_EQ(lookupName("deployment"), "deployments.apps/v1");
  EXPECT_EQ(lookupName("Deployment"), "deployments.apps/v1");
  EXPECT_EQ(lookupName("deployments.apps"), "deployments.apps/v1");
  EXPECT_EQ(lookupName("DEPLOY"), "deployments.apps/v1");
  EXPECT_EQ(lookupName("cm"), "configmaps/v1");
  EXPECT_EQ(lookupName("Widget"), "widgets.example.com/v1");
  EXPECT_EQ(lookupName("widgets.example.com"), "widgets.example.com/v1");
}

TEST(LookupTest, CoreGroupWinsOverSameNamedResourcesElsewhere) {
  EXPECT_EQ(lookupName("events"), "events/v1");
  EXPECT_EQ(lookupName("ev"), "events/v1");
  EXPECT_EQ(lookupName("events.events.k8s.io"), "events.events.k8s.io/v1");
}

TEST(LookupTest, ReportsAnUnknownName) {
  EXPECT_EQ(lookupName("gadgets"), "error: Unable to find api resource named \"gadgets\".");
  auto missing = matchApiResource("gadgets", "", serverResources());
  ASSERT_FALSE(missing);
  EXPECT_TRUE(isNotFound(missing.error()));
}

TEST(LookupTest, ReportsSeveralNonCoreMatches) {
  auto resources = serverResources();
  resources.push_back(resource("other.io", "v1", "widgets", "widget", "Widget", true));
  auto found = matchApiResource("widget", "", resources);
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error().message,
            "Multiple resources are matched by \"widget\": widgets.example.com, widgets.other.io. "
            "A group-qualified plural name must be provided.");
}

TEST(LookupTest, SkipsOtherVersionsWhenOneIsGiven) {
  EXPECT_EQ(lookupName("deployments", "v1"), "deployments.apps/v1");
  EXPECT_EQ(lookupName("deployments", "v1beta1"),
            "error: Unable to find api resource named \"deployments\".");
}

}  // namespace
}  // namespace kf
