#include "sync/finalizers.h"

#include <gtest/gtest.h>

namespace kf::sync {
namespace {

Json withFinalizers(std::vector<std::string> finalizers) {
  return Json{{"metadata", {{"name", "x"}, {"finalizers", finalizers}}}};
}

std::vector<std::string> finalizersOf(const Json& object) {
  return objectFinalizers(object).value_or(std::vector<std::string>{"<absent>"});
}

// Verifies finalizers_test: has-semantics.
TEST(FinalizersTest, Has) {
  EXPECT_TRUE(
      hasFinalizer(withFinalizers({"a", "kubefed.io/sync-controller"}), kSyncControllerFinalizer));
  EXPECT_FALSE(hasFinalizer(withFinalizers({"a"}), kSyncControllerFinalizer));
  EXPECT_FALSE(hasFinalizer(Json{{"metadata", Json::object()}}, "a"));
}

// Verifies finalizers_test: adding sorts and dedups, and reports a change only when one was
// missing.
TEST(FinalizersTest, Add) {
  Json object = withFinalizers({"z", "a"});
  EXPECT_TRUE(addFinalizers(object, {"m"}));
  EXPECT_EQ(finalizersOf(object), (std::vector<std::string>{"a", "m", "z"}));
  Json unchanged = withFinalizers({"z", "a"});
  EXPECT_FALSE(addFinalizers(unchanged, {"a", "z"}));
  EXPECT_EQ(finalizersOf(unchanged), (std::vector<std::string>{"z", "a"}));
  Json none = Json{{"metadata", {{"name", "x"}}}};
  EXPECT_TRUE(addFinalizers(none, {"kubefed.io/sync-controller"}));
  EXPECT_EQ(finalizersOf(none), (std::vector<std::string>{"kubefed.io/sync-controller"}));
}

// Verifies finalizers_test: removing reports a change only when one was present and removes
// the list when it becomes empty.
TEST(FinalizersTest, Remove) {
  Json object = withFinalizers({"c", "a", "b"});
  EXPECT_TRUE(removeFinalizers(object, {"b", "x"}));
  EXPECT_EQ(finalizersOf(object), (std::vector<std::string>{"a", "c"}));
  EXPECT_FALSE(removeFinalizers(object, {"x"}));
  EXPECT_TRUE(removeFinalizers(object, {"a", "c"}));
  EXPECT_FALSE(object["metadata"].contains("finalizers"));
}

// Verifies the merge patch: the list (or null) guarded by resourceVersion.
TEST(FinalizersTest, MergePatch) {
  Json object = withFinalizers({"a"});
  object["metadata"]["resourceVersion"] = "12";
  EXPECT_EQ(Json::parse(finalizersMergePatch(object)),
            Json::parse(R"({"metadata": {"finalizers": ["a"], "resourceVersion": "12"}})"));
  removeFinalizers(object, {"a"});
  EXPECT_EQ(Json::parse(finalizersMergePatch(object)),
            Json::parse(R"({"metadata": {"finalizers": null, "resourceVersion": "12"}})"));
}

}  // namespace
}  // namespace kf::sync
