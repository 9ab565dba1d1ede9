#include "sync/plan/object_version.h"

#include <gtest/gtest.h>

#include "tests/support/json.h"

namespace kf::sync {
namespace {

using test::parsed;

// Verifies the version string: generation when set, else resourceVersion.
TEST(ObjectVersionTest, GenerationWinsOverResourceVersion) {
  EXPECT_EQ(objectVersion(parsed(R"({"metadata": {"generation": 3, "resourceVersion": "9"}})")),
            "gen:3");
  EXPECT_EQ(objectVersion(parsed(R"({"metadata": {"generation": 0, "resourceVersion": "9"}})")),
            "rv:9");
  EXPECT_EQ(objectVersion(parsed(R"({"metadata": {"resourceVersion": "9"}})")), "rv:9");
  EXPECT_EQ(objectVersion(parsed(R"({"metadata": {}})")), "rv:");
  EXPECT_EQ(objectVersion(parsed(R"({"metadata": {"generation": "3", "resourceVersion": "9"}})")),
            "rv:9");
}

// Verifies meta_test: UID and resourceVersion are ignored.
TEST(ObjectMetaTest, IgnoresUidAndResourceVersion) {
  EXPECT_TRUE(objectMetaEquivalent(
      parsed(
          R"({"metadata": {"name": "a", "namespace": "n", "uid": "1", "resourceVersion": "1"}})"),
      parsed(
          R"({"metadata": {"name": "a", "namespace": "n", "uid": "2", "resourceVersion": "2"}})")));
}

// Verifies meta_test: nil and empty label / annotation maps are equal.
TEST(ObjectMetaTest, NilAndEmptyMapsAreEqual) {
  EXPECT_TRUE(objectMetaEquivalent(parsed(R"({"metadata": {"name": "a"}})"),
                                   parsed(R"({"metadata": {"name": "a", "labels": {},
                                                           "annotations": {}}})")));
  EXPECT_TRUE(objectMetaEquivalent(parsed(R"({"metadata": {"name": "a", "labels": null}})"),
                                   parsed(R"({"metadata": {"name": "a", "labels": {}}})")));
}

// Verifies meta_test: differing annotations, labels, names or namespaces differ.
TEST(ObjectMetaTest, DifferencesAreDetected) {
  const Json base = parsed(R"({"metadata": {"name": "a", "namespace": "n", "labels": {"l": "1"},
                                            "annotations": {"x": "1"}}})");
  Json other = base;
  other["metadata"]["annotations"]["x"] = "2";
  EXPECT_FALSE(objectMetaEquivalent(base, other));
  other = base;
  other["metadata"]["labels"] = Json::object();
  EXPECT_FALSE(objectMetaEquivalent(base, other));
  other = base;
  other["metadata"]["name"] = "b";
  EXPECT_FALSE(objectMetaEquivalent(base, other));
  other = base;
  other["metadata"]["namespace"] = "m";
  EXPECT_FALSE(objectMetaEquivalent(base, other));
  EXPECT_TRUE(objectMetaEquivalent(base, base));
}

// Verifies meta_test: ObjectMetaAndSpecEquivalent also compares spec.
TEST(ObjectMetaTest, MetaAndSpecEquivalence) {
  const Json a = parsed(R"({"metadata": {"name": "a", "uid": "1"}, "spec": {"replicas": 1}})");
  const Json b = parsed(R"({"metadata": {"name": "a", "uid": "2"}, "spec": {"replicas": 1}})");
  const Json c = parsed(R"({"metadata": {"name": "a"}, "spec": {"replicas": 2}})");
  EXPECT_TRUE(objectMetaAndSpecEquivalent(a, b));
  EXPECT_FALSE(objectMetaAndSpecEquivalent(a, c));
  EXPECT_FALSE(objectMetaAndSpecEquivalent(a, parsed(R"({"metadata": {"name": "a"}})")));
  EXPECT_TRUE(objectMetaAndSpecEquivalent(parsed(R"({"metadata": {"name": "a"}})"),
                                          parsed(R"({"metadata": {"name": "a"}})")));
}

// Verifies the update decision: a different or missing recorded version needs an update.
TEST(ObjectNeedsUpdateTest, VersionMismatchNeedsUpdate) {
  const Json cluster = parsed(R"({"metadata": {"name": "a", "generation": 2}})");
  EXPECT_TRUE(objectNeedsUpdate(cluster, cluster, ""));
  EXPECT_TRUE(objectNeedsUpdate(cluster, cluster, "gen:1"));
  EXPECT_FALSE(objectNeedsUpdate(cluster, cluster, "gen:2"));
}

// Verifies that with a generation version, metadata drift still needs an update, while with a
// resourceVersion version it does not (every change bumps resourceVersion).
TEST(ObjectNeedsUpdateTest, MetadataCheckedOnlyForGenerationVersions) {
  const Json desired = parsed(R"({"metadata": {"name": "a", "labels": {"kubefed.io/managed": "true",
                                                                       "new": "1"}}})");
  const Json with_generation = parsed(R"({"metadata": {"name": "a", "generation": 2,
      "labels": {"kubefed.io/managed": "true"}}})");
  EXPECT_TRUE(objectNeedsUpdate(desired, with_generation, "gen:2"));
  const Json with_rv = parsed(R"({"metadata": {"name": "a", "resourceVersion": "5",
      "labels": {"kubefed.io/managed": "true"}}})");
  EXPECT_FALSE(objectNeedsUpdate(desired, with_rv, "rv:5"));
  EXPECT_TRUE(objectNeedsUpdate(desired, with_rv, "rv:4"));
}

}  // namespace
}  // namespace kf::sync
