// §6 handlers_test: which informer notifications trigger a reconcile.

#include "federation/controller/change_trigger.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "federation/informer/store.h"

namespace kf {
namespace {

ObjectPtr configMap(const std::string& name, const Json& annotations = Json::object()) {
  return makeObject(
      {{"apiVersion", "v1"},
       {"kind", "ConfigMap"},
       {"metadata", {{"name", name}, {"namespace", "ns"}, {"annotations", annotations}}}});
}

class ChangeTriggerTest : public ::testing::Test {
 protected:
  std::vector<Json> triggered_;
  std::vector<Priority> priorities_;
  ChangeTrigger trigger_{[this](const Json& object, Priority priority) {
    triggered_.push_back(object);
    priorities_.push_back(priority);
  }};
};

// Verifies that the adds of an initial list trigger as a backlog, and every other event as
// normal: later adds, changes, deletes.
TEST_F(ChangeTriggerTest, OnlyTheInitialListIsABacklog) {
  trigger_.onAdd(configMap("a"), true);
  trigger_.onAdd(configMap("b"), false);
  trigger_.onUpdate(configMap("a"), configMap("a", {{"x", "1"}}));
  trigger_.onDelete(DeletedObject{configMap("b"), false, "ns/b"});
  EXPECT_EQ(priorities_, (std::vector<Priority>{Priority::kBacklog, Priority::kNormal,
                                                Priority::kNormal, Priority::kNormal}));
}

// Verifies that an add triggers with the object.
TEST_F(ChangeTriggerTest, AddTriggers) {
  trigger_.onAdd(configMap("a"), true);
  trigger_.onAdd(configMap("b"), false);
  ASSERT_EQ(triggered_.size(), 2U);
  EXPECT_EQ(objectName(triggered_[0]), "a");
  EXPECT_EQ(objectName(triggered_[1]), "b");
}

// Verifies that a delete triggers with the deleted object.
TEST_F(ChangeTriggerTest, DeleteTriggersWithTheObject) {
  const ObjectPtr object = configMap("a");
  trigger_.onDelete(DeletedObject{object, false, "ns/a"});
  ASSERT_EQ(triggered_.size(), 1U);
  EXPECT_EQ(triggered_[0], *object);
}

// Verifies that a delete seen only on re-list (a tombstone) triggers with its last known state.
TEST_F(ChangeTriggerTest, TombstoneTriggersWithTheLastKnownObject) {
  const ObjectPtr object = configMap("a");
  trigger_.onDelete(DeletedObject{object, true, "ns/a"});
  ASSERT_EQ(triggered_.size(), 1U);
  EXPECT_EQ(triggered_[0], *object);
}

// Verifies that a tombstone without an object is ignored.
TEST_F(ChangeTriggerTest, TombstoneWithoutObjectDoesNotTrigger) {
  trigger_.onDelete(DeletedObject{nullptr, true, "ns/a"});
  EXPECT_TRUE(triggered_.empty());
}

// Verifies that an update with identical objects (a resync, or the same pointer) is ignored.
TEST_F(ChangeTriggerTest, UpdateWithIdenticalObjectsDoesNotTrigger) {
  const ObjectPtr object = configMap("a", {{"x", "1"}});
  trigger_.onUpdate(object, object);
  trigger_.onUpdate(configMap("a", {{"x", "1"}}), configMap("a", {{"x", "1"}}));
  EXPECT_TRUE(triggered_.empty());
}

// Verifies that managedFields alone (kept by a list or watch, not by the caches) is no change,
// while any other difference, in or out of the metadata, is.
TEST_F(ChangeTriggerTest, ManagedFieldsAloneIsNoChange) {
  Json with_fields = *configMap("a", {{"x", "1"}});
  with_fields["metadata"]["managedFields"] = Json::array({{{"manager", "kubectl"}}});
  trigger_.onUpdate(configMap("a", {{"x", "1"}}), makeObject(with_fields));
  trigger_.onUpdate(makeObject(with_fields), configMap("a", {{"x", "1"}}));
  EXPECT_TRUE(triggered_.empty());

  Json relabelled = with_fields;
  relabelled["metadata"]["labels"] = {{"app", "web"}};
  trigger_.onUpdate(configMap("a", {{"x", "1"}}), makeObject(relabelled));
  Json with_data = with_fields;
  with_data["data"] = {{"k", "v"}};
  trigger_.onUpdate(configMap("a", {{"x", "1"}}), makeObject(with_data));
  EXPECT_EQ(triggered_.size(), 2U);
}

// Verifies that an update with changed annotations triggers with the new object.
TEST_F(ChangeTriggerTest, UpdateWithChangedAnnotationsTriggers) {
  const ObjectPtr updated = configMap("a", {{"x", "2"}});
  trigger_.onUpdate(configMap("a", {{"x", "1"}}), updated);
  ASSERT_EQ(triggered_.size(), 1U);
  EXPECT_EQ(triggered_[0], *updated);
}

}  // namespace
}  // namespace kf
