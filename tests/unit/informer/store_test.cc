#include "federation/informer/store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "federation/informer/compact_object.h"
#include "tests/unit/informer/fake_lister_watcher.h"

namespace kf {
namespace {

using test::makeJson;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> sortedKeys(const Store& store) {
  std::vector<std::string> keys = store.listKeys();
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<ObjectPtr> parsed(const std::vector<std::string>& compact_texts) {
  std::vector<ObjectPtr> objects;
  for (const std::string& text : compact_texts) objects.push_back(fromCompactText(text));
  return objects;
}

std::vector<std::string> keysOf(const std::vector<ObjectPtr>& objects) {
  std::vector<std::string> keys;
  keys.reserve(objects.size());
  for (const ObjectPtr& object : objects) {
    keys.push_back(objectKey(*object));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Files each object under the value of its "app" label, if it has one.
std::vector<std::string> byApp(const Json& object) {
  const Json& labels = object["metadata"]["labels"];
  if (labels.contains("app")) {
    return {labels["app"].get<std::string>()};
  }
  return {};
}

TEST(StoreTest, AddGetUpdateRemove) {
  Store store;
  EXPECT_EQ(store.add(makeObject(makeJson("ns1", "a", "1"))), nullptr);
  EXPECT_EQ(store.add(makeObject(makeJson("", "cluster-wide", "2"))), nullptr);

  ASSERT_NE(store.get("ns1/a"), nullptr);
  EXPECT_EQ(objectResourceVersion(*store.get("ns1/a")), "1");
  EXPECT_NE(store.get("cluster-wide"), nullptr);
  EXPECT_EQ(store.get("ns1/missing"), nullptr);
  EXPECT_EQ(store.size(), 2U);

  ObjectPtr old = store.update(makeObject(makeJson("ns1", "a", "3")));
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(objectResourceVersion(*old), "1");
  EXPECT_EQ(objectResourceVersion(*store.get("ns1/a")), "3");

  ObjectPtr removed = store.remove("ns1/a");
  ASSERT_NE(removed, nullptr);
  EXPECT_EQ(objectResourceVersion(*removed), "3");
  EXPECT_EQ(store.remove("ns1/a"), nullptr);
  EXPECT_THAT(sortedKeys(store), ElementsAre("cluster-wide"));
  EXPECT_THAT(keysOf(store.list()), ElementsAre("cluster-wide"));
}

TEST(StoreTest, HeldPointerSurvivesUpdateUnchanged) {
  Store store;
  store.add(makeObject(makeJson("ns", "a", "1")));
  ObjectPtr held = store.get("ns/a");
  store.update(makeObject(makeJson("ns", "a", "2")));
  store.remove("ns/a");
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(objectResourceVersion(*held), "1");
}

// Verifies that the store keeps text, not the tree it was given: each read parses a tree of its
// own with the same content, metadata.managedFields left out.
TEST(StoreTest, ReadsParseTheCompactFormWithoutManagedFields) {
  Store store;
  Json given = makeJson("ns", "a", "1");
  given["data"] = {{"greeting", "hello"}};
  Json with_managed_fields = given;
  with_managed_fields["metadata"]["managedFields"] = Json::parse(
      R"([{"manager":"kubectl","operation":"Update","fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}}])");
  ObjectPtr object = makeObject(with_managed_fields);
  store.add(object);

  ObjectPtr first = store.get("ns/a");
  ObjectPtr second = store.get("ns/a");
  ASSERT_NE(first, nullptr);
  EXPECT_NE(first.get(), object.get());
  EXPECT_NE(first.get(), second.get());
  EXPECT_EQ(*first, given);
  EXPECT_EQ(*second, given);
  EXPECT_EQ(*store.byIndex(kNamespaceIndex, "ns").value().at(0), given);
  EXPECT_EQ(*store.list().at(0), given);
  EXPECT_EQ(*store.remove("ns/a"), given);
}

TEST(StoreTest, ReplaceSwapsContentAndReportsDiff) {
  Store store;
  store.add(makeObject(makeJson("ns", "stale", "1")));
  store.add(makeObject(makeJson("ns", "kept", "1")));

  ReplaceResult diff = store.replace(
      {makeObject(makeJson("ns", "kept", "5")), makeObject(makeJson("ns", "fresh", "6"))}, "7");

  EXPECT_THAT(sortedKeys(store), ElementsAre("ns/fresh", "ns/kept"));
  EXPECT_EQ(objectResourceVersion(*store.get("ns/kept")), "5");
  EXPECT_EQ(store.resourceVersion(), "7");
  EXPECT_THAT(keysOf(parsed(diff.added)), ElementsAre("ns/fresh"));
  EXPECT_THAT(keysOf(parsed(diff.removed)), ElementsAre("ns/stale"));
  ASSERT_EQ(diff.updated.size(), 1U);
  EXPECT_EQ(objectResourceVersion(*fromCompactText(diff.updated[0].first)), "1");
  EXPECT_EQ(objectResourceVersion(*fromCompactText(diff.updated[0].second)), "5");
  EXPECT_THAT(store.indexKeys(kNamespaceIndex, "ns").value(), ElementsAre("ns/fresh", "ns/kept"));
}

TEST(StoreTest, ReplaceWithDuplicateKeysKeepsTheLast) {
  Store store;
  store.replace({makeObject(makeJson("ns", "a", "1")), makeObject(makeJson("ns", "a", "2"))}, "2");
  EXPECT_EQ(store.size(), 1U);
  EXPECT_EQ(objectResourceVersion(*store.get("ns/a")), "2");
}

TEST(StoreTest, ReplacementBuiltItemByItemUnfilesADuplicateKeysEarlierValues) {
  Store store;
  ASSERT_TRUE(store.addIndexers({{"app", byApp}}));
  Store::Replacement content = store.beginReplace();
  content.add(makeJson("ns", "a", "1", {{"app", "web"}}));
  content.add(makeJson("ns", "a", "2", {{"app", "db"}}));
  content.add(makeJson("ns", "b", "1", {{"app", "web"}}));
  store.replace(std::move(content), "3");

  EXPECT_EQ(objectResourceVersion(*store.get("ns/a")), "2");
  EXPECT_THAT(store.indexKeys("app", "web").value(), ElementsAre("ns/b"));
  EXPECT_THAT(store.indexKeys("app", "db").value(), ElementsAre("ns/a"));
  EXPECT_EQ(store.resourceVersion(), "3");
}

TEST(StoreTest, ReplacementBegunBeforeAddIndexersIsFiledUnderTheNewIndexToo) {
  Store store;
  Store::Replacement content = store.beginReplace();
  content.add(makeJson("ns", "a", "1", {{"app", "web"}}));
  ASSERT_TRUE(store.addIndexers({{"app", byApp}}));
  store.replace(std::move(content), "1");
  EXPECT_THAT(store.indexKeys("app", "web").value(), ElementsAre("ns/a"));
  EXPECT_THAT(store.indexKeys(kNamespaceIndex, "ns").value(), ElementsAre("ns/a"));
}

TEST(StoreTest, CompactTextsHoldEveryObject) {
  Store store;
  store.add(makeObject(makeJson("ns", "a", "1")));
  store.add(makeObject(makeJson("", "b", "2")));
  EXPECT_THAT(keysOf(parsed(store.compactTexts())), ElementsAre("b", "ns/a"));
}

TEST(StoreTest, NamespaceIndexIsBuiltIn) {
  Store store;
  store.add(makeObject(makeJson("ns1", "a", "1")));
  store.add(makeObject(makeJson("ns1", "b", "1")));
  store.add(makeObject(makeJson("ns2", "c", "1")));
  store.add(makeObject(makeJson("", "node", "1")));

  EXPECT_THAT(keysOf(store.byIndex(kNamespaceIndex, "ns1").value()), ElementsAre("ns1/a", "ns1/b"));
  EXPECT_THAT(store.indexKeys(kNamespaceIndex, "ns2").value(), ElementsAre("ns2/c"));
  EXPECT_THAT(store.indexKeys(kNamespaceIndex, "").value(), ElementsAre("node"));
  EXPECT_THAT(store.byIndex(kNamespaceIndex, "nope").value(), IsEmpty());
  EXPECT_THAT(store.indexValues(kNamespaceIndex).value(), ElementsAre("", "ns1", "ns2"));

  store.remove("ns2/c");
  EXPECT_THAT(store.indexValues(kNamespaceIndex).value(), ElementsAre("", "ns1"));
}

TEST(StoreTest, CustomIndexFollowsUpdatesRemovesAndReplace) {
  Store store;
  store.add(makeObject(makeJson("ns", "before", "1", {{"app", "web"}})));
  ASSERT_TRUE(store.addIndexers({{"app", byApp}}));
  // Objects stored before the index existed are filed too.
  EXPECT_THAT(store.indexKeys("app", "web").value(), ElementsAre("ns/before"));

  store.add(makeObject(makeJson("ns", "a", "1", {{"app", "web"}})));
  store.add(makeObject(makeJson("ns", "b", "1", {{"app", "db"}})));
  store.add(makeObject(makeJson("ns", "unlabelled", "1")));
  EXPECT_THAT(store.indexKeys("app", "web").value(), ElementsAre("ns/a", "ns/before"));

  // Relabelling moves the key from one value to the other.
  store.update(makeObject(makeJson("ns", "a", "2", {{"app", "db"}})));
  EXPECT_THAT(store.indexKeys("app", "web").value(), ElementsAre("ns/before"));
  EXPECT_THAT(keysOf(store.byIndex("app", "db").value()), ElementsAre("ns/a", "ns/b"));

  store.remove("ns/b");
  EXPECT_THAT(store.indexKeys("app", "db").value(), ElementsAre("ns/a"));
  EXPECT_THAT(store.indexValues("app").value(), ElementsAre("db", "web"));

  store.replace({makeObject(makeJson("ns", "c", "9", {{"app", "cache"}}))}, "9");
  EXPECT_THAT(store.indexValues("app").value(), ElementsAre("cache"));
  EXPECT_THAT(store.indexKeys("app", "cache").value(), ElementsAre("ns/c"));
  EXPECT_THAT(store.indexKeys(kNamespaceIndex, "ns").value(), ElementsAre("ns/c"));
}

TEST(StoreTest, MultiValuedIndex) {
  Store store;
  ASSERT_TRUE(store.addIndexers({{"label-keys", [](const Json& object) {
                                    std::vector<std::string> keys;
                                    for (const auto& [key, value] :
                                         object["metadata"]["labels"].items()) {
                                      keys.push_back(key);
                                    }
                                    return keys;
                                  }}}));
  store.add(makeObject(makeJson("ns", "a", "1", {{"x", "1"}, {"y", "2"}})));
  store.add(makeObject(makeJson("ns", "b", "1", {{"y", "3"}})));
  EXPECT_THAT(store.indexKeys("label-keys", "x").value(), ElementsAre("ns/a"));
  EXPECT_THAT(store.indexKeys("label-keys", "y").value(), ElementsAre("ns/a", "ns/b"));
}

TEST(StoreTest, UnknownOrDuplicateIndexIsAnError) {
  Store store;
  auto missing = store.byIndex("nope", "x");
  ASSERT_FALSE(missing);
  EXPECT_TRUE(isNotFound(missing.error()));
  EXPECT_FALSE(store.indexKeys("nope", "x"));
  EXPECT_FALSE(store.indexValues("nope"));

  auto clash = store.addIndexers({{"app", byApp}, {kNamespaceIndex, byApp}});
  ASSERT_FALSE(clash);
  EXPECT_TRUE(isAlreadyExists(clash.error()));
  EXPECT_FALSE(store.indexValues("app"));  // nothing of a failed call is kept
}

TEST(StoreTest, ConcurrentWritersAndReaders) {
  Store store;
  ASSERT_TRUE(store.addIndexers({{"app", byApp}}));
  std::vector<std::jthread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&store, t] {
      for (int i = 0; i < 200; ++i) {
        const std::string name = "obj-" + std::to_string(i % 20);
        const std::string ns = "ns" + std::to_string(t);
        store.add(makeObject(makeJson(ns, name, std::to_string(i), {{"app", "a"}})));
        (void)store.byIndex("app", "a");
        (void)store.list();
        if (i % 7 == 0) {
          store.remove(ns + "/" + name);
        }
      }
    });
  }
  threads.clear();
  for (const ObjectPtr& object : store.list()) {
    auto filed = store.indexKeys(kNamespaceIndex, objectNamespace(*object)).value();
    EXPECT_TRUE(std::find(filed.begin(), filed.end(), objectKey(*object)) != filed.end());
  }
  EXPECT_EQ(store.indexKeys("app", "a").value().size(), store.size());
}

}  // namespace
}  // namespace kf
