#include "sync/plan/propagated_versions.h"

#include <gtest/gtest.h>

namespace kf::sync {
namespace {

core::PropagatedVersionStatus status(std::string template_version, std::string overrides_version,
                                     std::vector<std::pair<std::string, std::string>> versions) {
  core::PropagatedVersionStatus out;
  out.template_version = std::move(template_version);
  out.overrides_version = std::move(overrides_version);
  for (auto& [cluster, version] : versions) {
    out.cluster_versions.push_back(core::ClusterObjectVersion{cluster, version, Json()});
  }
  return out;
}

ClusterVersions versionsOf(const core::PropagatedVersionStatus& s) {
  ClusterVersions out;
  for (const auto& v : s.cluster_versions) out[v.cluster_name] = v.version;
  return out;
}

std::vector<std::string> clusterOrder(const core::PropagatedVersionStatus& s) {
  std::vector<std::string> out;
  for (const auto& v : s.cluster_versions) out.push_back(v.cluster_name);
  return out;
}

// Verifies the version object's name: lower-case target kind, dash, federated name.
TEST(PropagatedVersionsTest, Names) {
  EXPECT_EQ(propagatedVersionPrefix("ConfigMap"), "configmap-");
  EXPECT_EQ(propagatedVersionName("Deployment", {"prod", "web"}),
            (QualifiedName{"prod", "deployment-web"}));
  EXPECT_EQ(propagatedVersionName("Namespace", {"team", "team"}),
            (QualifiedName{"team", "namespace-team"}));
  EXPECT_EQ(propagatedVersionName("ClusterRole", {"", "admin"}),
            (QualifiedName{"", "clusterrole-admin"}));
}

// Verifies the owner reference and the object to create for both scopes.
TEST(PropagatedVersionsTest, NewObjects) {
  const Json federated = Json::parse(R"({"apiVersion": "types.kubefed.io/v1beta1",
      "kind": "FederatedDeployment",
      "metadata": {"name": "web", "namespace": "prod", "uid": "u-1"}})");
  const Json owner = propagatedVersionOwnerReference(federated);
  EXPECT_EQ(owner, Json::parse(R"({"apiVersion": "types.kubefed.io/v1beta1",
      "kind": "FederatedDeployment", "name": "web", "uid": "u-1"})"));
  const auto s = status("t", "o", {{"c1", "gen:1"}});
  EXPECT_EQ(newPropagatedVersionObject({"prod", "deployment-web"}, true, owner, s),
            Json::parse(R"({"apiVersion": "core.kubefed.io/v1alpha1", "kind": "PropagatedVersion",
                "metadata": {"name": "deployment-web", "namespace": "prod", "ownerReferences": [
                   {"apiVersion": "types.kubefed.io/v1beta1", "kind": "FederatedDeployment",
                    "name": "web", "uid": "u-1"}]},
                "status": {"templateVersion": "t", "overridesVersion": "o",
                           "clusterVersions": [{"clusterName": "c1", "version": "gen:1"}]}})"));
  const Json cluster_scoped =
      newPropagatedVersionObject({"", "clusterrole-admin"}, false, owner, status("t", "o", {}));
  EXPECT_EQ(cluster_scoped["kind"], "ClusterPropagatedVersion");
  EXPECT_FALSE(cluster_scoped["metadata"].contains("namespace"));
  EXPECT_FALSE(cluster_scoped["status"].contains("clusterVersions"));
}

// Verifies that recorded versions count only while both hashes match.
TEST(PropagatedVersionsTest, VersionsForClustersNeedMatchingHashes) {
  const auto entry = status("t1", "o1", {{"c1", "gen:1"}, {"c2", "rv:5"}});
  EXPECT_EQ(versionsForClusters(&entry, "t1", "o1"),
            (ClusterVersions{{"c1", "gen:1"}, {"c2", "rv:5"}}));
  EXPECT_TRUE(versionsForClusters(&entry, "t2", "o1").empty());
  EXPECT_TRUE(versionsForClusters(&entry, "t1", "o2").empty());
  EXPECT_TRUE(versionsForClusters(nullptr, "t1", "o1").empty());
}

// Verifies the merge with unchanged hashes: recorded versions of selected clusters kept, new
// ones overlaid, unselected ones dropped, empty versions dropped, sorted by cluster name.
TEST(PropagatedVersionsTest, MergeKeepsSelectedRecordedVersions) {
  const auto entry = status("t", "o", {{"c1", "gen:1"}, {"c2", "gen:2"}, {"c3", "gen:3"}});
  const auto update = mergeVersions(&entry, "t", "o", {"c1", "c2", "c4"},
                                    {{"c4", "rv:9"}, {"c2", "gen:5"}, {"c0", ""}});
  EXPECT_FALSE(update.unchanged);
  EXPECT_EQ(versionsOf(update.status),
            (ClusterVersions{{"c1", "gen:1"}, {"c2", "gen:5"}, {"c4", "rv:9"}}));
  EXPECT_EQ(clusterOrder(update.status), (std::vector<std::string>{"c1", "c2", "c4"}));
  EXPECT_EQ(update.status.template_version, "t");
  EXPECT_EQ(update.status.overrides_version, "o");
}

// Verifies that an empty new version removes a selected cluster's recorded version.
TEST(PropagatedVersionsTest, EmptyNewVersionRemovesRecordedOne) {
  const auto entry = status("t", "o", {{"c1", "gen:1"}});
  const auto update = mergeVersions(&entry, "t", "o", {"c1"}, {{"c1", ""}});
  EXPECT_TRUE(update.status.cluster_versions.empty());
  EXPECT_FALSE(update.unchanged);
}

// Verifies that changed hashes, or no entry, start from the new versions alone.
TEST(PropagatedVersionsTest, ChangedHashesStartOver) {
  const auto entry = status("t", "o", {{"c1", "gen:1"}, {"c2", "gen:2"}});
  const auto update = mergeVersions(&entry, "t2", "o", {"c1", "c2"}, {{"c2", "gen:3"}});
  EXPECT_FALSE(update.unchanged);
  EXPECT_EQ(versionsOf(update.status), (ClusterVersions{{"c2", "gen:3"}}));
  EXPECT_EQ(update.status.template_version, "t2");
  const auto fresh = mergeVersions(nullptr, "t", "o", {}, {{"b", "gen:1"}, {"a", "gen:1"}});
  EXPECT_FALSE(fresh.unchanged);
  EXPECT_EQ(clusterOrder(fresh.status), (std::vector<std::string>{"a", "b"}));
}

// Verifies "unchanged" detection (no write), including no versions on either side.
TEST(PropagatedVersionsTest, UnchangedDetection) {
  const auto entry = status("t", "o", {{"c1", "gen:1"}});
  EXPECT_TRUE(mergeVersions(&entry, "t", "o", {"c1"}, {}).unchanged);
  EXPECT_TRUE(mergeVersions(&entry, "t", "o", {"c1"}, {{"c1", "gen:1"}}).unchanged);
  EXPECT_FALSE(mergeVersions(&entry, "t", "o", {"c1"}, {{"c1", "gen:2"}}).unchanged);
  EXPECT_FALSE(mergeVersions(&entry, "t", "o", {}, {}).unchanged);
  const auto empty = status("t", "o", {});
  EXPECT_TRUE(mergeVersions(&empty, "t", "o", {"c1"}, {}).unchanged);
  EXPECT_FALSE(mergeVersions(nullptr, "t", "o", {}, {}).unchanged);
  const auto unsorted = status("t", "o", {{"c2", "gen:1"}, {"c1", "gen:1"}});
  EXPECT_FALSE(mergeVersions(&unsorted, "t", "o", {"c1", "c2"}, {}).unchanged);
}

}  // namespace
}  // namespace kf::sync
