#include "sync/plan/managed_label.h"

#include <gtest/gtest.h>

namespace kf::sync {
namespace {

Json withLabels(const char* labels) {
  return Json{{"metadata", {{"name", "x"}, {"labels", Json::parse(labels)}}}};
}

// Verifies the managed / explicitly unmanaged predicates.
TEST(ManagedLabelTest, Predicates) {
  EXPECT_TRUE(hasManagedLabel(withLabels(R"({"kubefed.io/managed": "true"})")));
  EXPECT_FALSE(hasManagedLabel(withLabels(R"({"kubefed.io/managed": "True"})")));
  EXPECT_FALSE(hasManagedLabel(Json{{"metadata", {{"name", "x"}}}}));
  EXPECT_TRUE(isExplicitlyUnmanaged(withLabels(R"({"kubefed.io/managed": "false"})")));
  EXPECT_FALSE(isExplicitlyUnmanaged(withLabels(R"({"kubefed.io/managed": "true"})")));
  EXPECT_FALSE(isExplicitlyUnmanaged(withLabels("{}")));
}

// Verifies that adding keeps other labels, creates metadata, and replaces ill-typed labels.
TEST(ManagedLabelTest, Add) {
  Json object = withLabels(R"({"app": "web"})");
  addManagedLabel(object);
  EXPECT_EQ(object["metadata"]["labels"],
            Json::parse(R"({"app": "web", "kubefed.io/managed": "true"})"));
  Json bare = Json::object();
  addManagedLabel(bare);
  EXPECT_EQ(bare, Json::parse(R"({"metadata": {"labels": {"kubefed.io/managed": "true"}}})"));
  Json ill_typed = withLabels(R"({"app": 5})");
  addManagedLabel(ill_typed);
  EXPECT_EQ(ill_typed["metadata"]["labels"], Json::parse(R"({"kubefed.io/managed": "true"})"));
  Json bad_metadata = Json{{"metadata", "x"}};
  addManagedLabel(bad_metadata);
  EXPECT_EQ(bad_metadata, (Json{{"metadata", "x"}}));
}

// Verifies that removal only removes a "true" label.
TEST(ManagedLabelTest, Remove) {
  Json object = withLabels(R"({"kubefed.io/managed": "true", "app": "web"})");
  EXPECT_TRUE(removeManagedLabel(object));
  EXPECT_EQ(object["metadata"]["labels"], Json::parse(R"({"app": "web"})"));
  Json unmanaged = withLabels(R"({"kubefed.io/managed": "false"})");
  EXPECT_FALSE(removeManagedLabel(unmanaged));
  EXPECT_EQ(unmanaged["metadata"]["labels"], Json::parse(R"({"kubefed.io/managed": "false"})"));
  EXPECT_EQ(Json::parse(removeManagedLabelMergePatch()),
            Json::parse(R"({"metadata": {"labels": {"kubefed.io/managed": null}}})"));
}

// Verifies the orphaning annotation.
TEST(ManagedLabelTest, Orphaning) {
  EXPECT_TRUE(isOrphaningEnabled(
      Json::parse(R"({"metadata": {"annotations": {"kubefed.io/orphan": "true"}}})")));
  EXPECT_FALSE(isOrphaningEnabled(
      Json::parse(R"({"metadata": {"annotations": {"kubefed.io/orphan": "false"}}})")));
  EXPECT_FALSE(isOrphaningEnabled(Json::parse(R"({"metadata": {}})")));
}

// Verifies client-go's accessor semantics for metadata reads and writes.
TEST(ObjectMetaTest, AccessorSemantics) {
  const Json object = Json::parse(R"({"metadata": {"name": "n", "namespace": 5, "generation": 2,
      "labels": {"a": "1"}, "annotations": {"b": 2}, "finalizers": ["f"],
      "deletionTimestamp": "2024-01-01T00:00:00Z", "uid": "u"}})");
  EXPECT_EQ(objectName(object), "n");
  EXPECT_EQ(objectNamespace(object), "");
  EXPECT_EQ(objectGeneration(object), 2);
  EXPECT_EQ(objectUid(object), "u");
  EXPECT_TRUE(hasDeletionTimestamp(object));
  EXPECT_EQ(objectLabels(object), (StringMap{{"a", "1"}}));
  EXPECT_FALSE(objectAnnotations(object).has_value());
  EXPECT_EQ(objectFinalizers(object), (std::vector<std::string>{"f"}));
  EXPECT_EQ(objectGeneration(Json::parse(R"({"metadata": {"generation": 18446744073709551615}})")),
            0);
  EXPECT_FALSE(hasDeletionTimestamp(Json::parse(R"({"metadata": {"deletionTimestamp": null}})")));
  Json writable = Json::parse(R"({"metadata": {"name": "n"}})");
  setMetadataString(writable, "name", "");
  setMetadataString(writable, "namespace", "ns");
  setFinalizers(writable, std::vector<std::string>{});
  EXPECT_EQ(writable, Json::parse(R"({"metadata": {"namespace": "ns", "finalizers": []}})"));
}

}  // namespace
}  // namespace kf::sync
