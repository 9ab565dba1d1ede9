// §6 finalizers_test: set semantics, sorted results, and a "changed" flag only on change.

#include "federation/controller/finalizers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kf {
namespace {

using Strings = std::vector<std::string>;

Json withFinalizers(const Json& finalizers) {
  Json object = {{"metadata", {{"name", "a"}}}};
  if (!finalizers.is_null()) object["metadata"]["finalizers"] = finalizers;
  return object;
}

// Verifies reading finalizers, absent or present.
TEST(FinalizersTest, ReadsAndFindsFinalizers) {
  EXPECT_TRUE(finalizersOf(withFinalizers(nullptr)).empty());
  EXPECT_TRUE(finalizersOf(Json::object()).empty());
  const Json object = withFinalizers({"b", "a"});
  EXPECT_EQ(finalizersOf(object), (Strings{"b", "a"}));
  EXPECT_TRUE(hasFinalizer(object, "a"));
  EXPECT_FALSE(hasFinalizer(object, "c"));
  EXPECT_FALSE(hasFinalizer(withFinalizers(nullptr), "a"));
}

struct AddCase {
  const char* name;
  Json current;
  Strings added;
  bool changed;
  Strings result;
};

// Verifies adding: unchanged when all are present, else the sorted union.
TEST(FinalizersTest, AddTable) {
  const AddCase cases[] = {
      {"add to none", nullptr, {"x"}, true, {"x"}},
      {"add to empty list", Json::array(), {"x"}, true, {"x"}},
      {"add new to existing, sorted", {"z", "b"}, {"m"}, true, {"b", "m", "z"}},
      {"add present one", {"z", "b"}, {"b"}, false, {"z", "b"}},
      {"add present and new", {"b"}, {"b", "a"}, true, {"a", "b"}},
      {"add duplicates", nullptr, {"x", "x"}, true, {"x"}},
      {"add nothing", {"b", "a"}, {}, false, {"b", "a"}},
  };
  for (const AddCase& c : cases) {
    const FinalizerUpdate update = addFinalizers(withFinalizers(c.current), c.added);
    EXPECT_EQ(update.changed, c.changed) << c.name;
    EXPECT_EQ(update.finalizers, c.result) << c.name;
  }
}

struct RemoveCase {
  const char* name;
  Json current;
  Strings removed;
  bool changed;
  Strings result;
};

// Verifies removing: unchanged when none is present, else the sorted remainder.
TEST(FinalizersTest, RemoveTable) {
  const RemoveCase cases[] = {
      {"remove from none", nullptr, {"x"}, false, {}},
      {"remove absent", {"z", "b"}, {"x"}, false, {"z", "b"}},
      {"remove one, rest sorted", {"z", "x", "b"}, {"x"}, true, {"b", "z"}},
      {"remove present and absent", {"x"}, {"x", "y"}, true, {}},
      {"remove duplicated", {"x", "x", "a"}, {"x"}, true, {"a"}},
  };
  for (const RemoveCase& c : cases) {
    const FinalizerUpdate update = removeFinalizers(withFinalizers(c.current), c.removed);
    EXPECT_EQ(update.changed, c.changed) << c.name;
    EXPECT_EQ(update.finalizers, c.result) << c.name;
  }
}

// Verifies the merge patch: the whole list, null for none, and no resourceVersion precondition
// (KubeFed's finalizer patches have none).
TEST(FinalizersTest, MergePatch) {
  EXPECT_EQ(Json::parse(finalizersMergePatch({"a", "b"})),
            Json::parse(R"({"metadata":{"finalizers":["a","b"]}})"));
  EXPECT_EQ(Json::parse(finalizersMergePatch({})),
            Json::parse(R"({"metadata":{"finalizers":null}})"));
}

}  // namespace
}  // namespace kf
