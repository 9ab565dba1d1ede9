#include "federation/scheduling/federated_update.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/json.h"

namespace kf::scheduling {
namespace {

using test::parsed;
using testing::HasSubstr;

Json federatedDeployment(const char* spec) {
  Json out = parsed(R"({"apiVersion": "types.kubefed.io/v1beta1", "kind": "FederatedDeployment",
                        "metadata": {"name": "web", "namespace": "shop", "resourceVersion": "7"}})");
  out["spec"] = parsed(spec);
  return out;
}

// The spec after the update; "unchanged" when there is nothing to write.
Json updatedSpec(const char* spec, const ReplicaCounts& result) {
  auto updated = applySchedulingResult(federatedDeployment(spec), result);
  EXPECT_TRUE(updated) << updated.error().message;
  if (!updated) return "error";
  if (!updated.value()) return "unchanged";
  return updated.value()->at("spec");
}

// Verifies that an object already carrying the result needs no write, whatever the order of
// its cluster list and of its overrides, and whatever else its overrides hold.
TEST(FederatedUpdateTest, NothingDiffersNoChange) {
  EXPECT_EQ(updatedSpec(R"({
    "template": {"spec": {"replicas": 1}},
    "placement": {"clusters": [{"name": "b"}, {"name": "a"}]},
    "overrides": [
      {"clusterName": "b", "clusterOverrides": [{"path": "/spec/replicas", "value": 6}]},
      {"clusterName": "a", "clusterOverrides": [
        {"op": "add", "path": "/metadata/labels/x", "value": "y"},
        {"op": "replace", "path": "/spec/replicas", "value": 3}]},
      {"clusterName": "gone", "clusterOverrides": [{"path": "/spec/paused", "value": true}]}]})",
                        {{"a", 3}, {"b", 6}}),
            "unchanged");
}

// Verifies that only the placement is rewritten when only the cluster list differs; the
// selector stays and the overrides are left exactly as they were.
TEST(FederatedUpdateTest, PlacementRewrittenWhenNamesDiffer) {
  const char* spec = R"({
    "placement": {"clusters": [{"name": "a"}], "clusterSelector": {"matchLabels": {"x": "y"}}},
    "overrides": [
      {"clusterName": "a", "clusterOverrides": [{"op": "", "path": "/spec/replicas", "value": 3}]},
      {"clusterName": "b", "clusterOverrides": [{"path": "/spec/replicas", "value": 0}]}]})";
  Json expected = parsed(spec);
  expected["placement"]["clusters"] = parsed(R"([{"name": "a"}, {"name": "b"}])");
  EXPECT_EQ(updatedSpec(spec, {{"a", 3}, {"b", 0}}), expected);
}

// Verifies that a listed duplicate makes the lists differ, as KubeFed compares sorted lists.
TEST(FederatedUpdateTest, DuplicateClusterNamesDiffer) {
  const Json spec = updatedSpec(R"({
    "placement": {"clusters": [{"name": "a"}, {"name": "a"}]},
    "overrides": [{"clusterName": "a", "clusterOverrides": [{"path": "/spec/replicas", "value": 2}]}]})",
                                {{"a", 2}});
  EXPECT_EQ(spec["placement"]["clusters"], parsed(R"([{"name": "a"}])"));
}

// Verifies that placement and overrides are created on an object that has neither, with
// appended overrides carrying no op.
TEST(FederatedUpdateTest, CreatesPlacementAndOverrides) {
  EXPECT_EQ(updatedSpec(R"({"template": {}})", {{"m2", 6}, {"m1", 3}}), parsed(R"({
    "template": {},
    "placement": {"clusters": [{"name": "m1"}, {"name": "m2"}]},
    "overrides": [
      {"clusterName": "m1", "clusterOverrides": [{"path": "/spec/replicas", "value": 3}]},
      {"clusterName": "m2", "clusterOverrides": [{"path": "/spec/replicas", "value": 6}]}]})"));

  auto updated = applySchedulingResult(parsed(R"({"kind": "FederatedDeployment"})"), {{"m", 1}});
  ASSERT_TRUE(updated && updated.value());
  EXPECT_EQ(updated.value()->at("spec"), parsed(R"({
    "placement": {"clusters": [{"name": "m"}]},
    "overrides": [{"clusterName": "m", "clusterOverrides": [{"path": "/spec/replicas", "value": 1}]}]})"));
}

// Verifies plugin_test's updateOverridesMap: a cluster not in the result loses its replicas
// override and keeps the others; a cluster with one gets the new value; a cluster without one
// gets it appended after its other overrides; a new cluster's entry comes after the others.
TEST(FederatedUpdateTest, OverridesRemovedUpdatedAndAppended) {
  EXPECT_EQ(updatedSpec(R"({
    "placement": {"clusters": [{"name": "a"}, {"name": "b"}, {"name": "c"}]},
    "overrides": [
      {"clusterName": "c", "clusterOverrides": [
        {"path": "/spec/replicas", "value": 5},
        {"op": "add", "path": "/metadata/labels/c", "value": "1"}]},
      {"clusterName": "a", "clusterOverrides": [
        {"op": "replace", "path": "/spec/replicas", "value": 1},
        {"op": "remove", "path": "/spec/paused"}]},
      {"clusterName": "b", "clusterOverrides": [{"path": "/spec/template/spec/priority", "value": 2}]}]})",
                        {{"a", 4}, {"b", 2}, {"d", 3}}),
            parsed(R"({
    "placement": {"clusters": [{"name": "a"}, {"name": "b"}, {"name": "d"}]},
    "overrides": [
      {"clusterName": "c", "clusterOverrides": [
        {"op": "add", "path": "/metadata/labels/c", "value": "1"}]},
      {"clusterName": "a", "clusterOverrides": [
        {"op": "replace", "path": "/spec/replicas", "value": 4},
        {"op": "remove", "path": "/spec/paused"}]},
      {"clusterName": "b", "clusterOverrides": [
        {"path": "/spec/template/spec/priority", "value": 2},
        {"path": "/spec/replicas", "value": 2}]},
      {"clusterName": "d", "clusterOverrides": [{"path": "/spec/replicas", "value": 3}]}]})"));
}

// Verifies that a cluster losing its only override keeps an empty entry, as KubeFed writes it.
TEST(FederatedUpdateTest, EmptiedEntryIsKept) {
  const Json spec = updatedSpec(R"({
    "placement": {"clusters": [{"name": "a"}]},
    "overrides": [{"clusterName": "x", "clusterOverrides": [{"path": "/spec/replicas", "value": 1}]},
                  {"clusterName": "a", "clusterOverrides": [{"path": "/spec/replicas", "value": 1}]}]})",
                                {{"a", 1}});
  EXPECT_EQ(spec["overrides"], parsed(R"([
    {"clusterName": "x", "clusterOverrides": []},
    {"clusterName": "a", "clusterOverrides": [{"path": "/spec/replicas", "value": 1}]}])"));
}

// Verifies how override values compare: as KubeFed's float64 truncated to an integer, anything
// but a number differing.
TEST(FederatedUpdateTest, OverrideValuesCompareAsTruncatedNumbers) {
  struct Case {
    const char* value;
    bool changes;
  };
  for (const Case& c :
       {Case{"3", false}, Case{"3.0", false}, Case{"3.7", false}, Case{"4", true},
        Case{"2.9", true}, Case{"\"3\"", true}, Case{"null", true}, Case{"true", true},
        Case{"[3]", true}, Case{"1e300", true}, Case{"18446744073709551615", true}}) {
    const std::string spec =
        std::string(
            R"({"placement": {"clusters": [{"name": "a"}]}, "overrides": [{"clusterName": "a", "clusterOverrides": [{"path": "/spec/replicas", "value": )") +
        c.value + "}]}]}";
    const Json updated = updatedSpec(spec.c_str(), {{"a", 3}});
    if (!c.changes) {
      EXPECT_EQ(updated, "unchanged") << c.value;
      continue;
    }
    ASSERT_TRUE(updated.is_object()) << c.value;
    EXPECT_EQ(updated["overrides"][0]["clusterOverrides"],
              parsed(R"([{"path": "/spec/replicas", "value": 3}])"))
        << c.value;
  }
}

// Verifies that an override without value counts as differing and gets one.
TEST(FederatedUpdateTest, ReplicasOverrideWithoutValueDiffers) {
  const Json spec = updatedSpec(R"({
    "placement": {"clusters": [{"name": "a"}]},
    "overrides": [{"clusterName": "a", "clusterOverrides": [{"path": "/spec/replicas"}]}]})",
                                {{"a", 0}});
  EXPECT_EQ(spec["overrides"][0]["clusterOverrides"],
            parsed(R"([{"path": "/spec/replicas", "value": 0}])"));
}

// Verifies that a result cluster without a replicas override makes the overrides differ even
// when every existing one matches (the counts differ).
TEST(FederatedUpdateTest, MissingReplicasOverrideDiffers) {
  const Json spec = updatedSpec(R"({
    "placement": {"clusters": [{"name": "a"}, {"name": "b"}]},
    "overrides": [{"clusterName": "a", "clusterOverrides": [{"path": "/spec/replicas", "value": 2}]}]})",
                                {{"a", 2}, {"b", 0}});
  EXPECT_EQ(
      spec["overrides"][1],
      parsed(
          R"({"clusterName": "b", "clusterOverrides": [{"path": "/spec/replicas", "value": 0}]})"));
}

// Verifies that the rest of the object (metadata, template, status) is kept.
TEST(FederatedUpdateTest, KeepsTheRestOfTheObject) {
  Json object = federatedDeployment(R"({"template": {"spec": {"replicas": 9}}})");
  object["status"] = parsed(R"({"conditions": []})");
  auto updated = applySchedulingResult(object, {{"a", 1}});
  ASSERT_TRUE(updated && updated.value());
  Json expected = object;
  expected["spec"]["placement"] = parsed(R"({"clusters": [{"name": "a"}]})");
  expected["spec"]["overrides"] = parsed(
      R"([{"clusterName": "a", "clusterOverrides": [{"path": "/spec/replicas", "value": 1}]}])");
  EXPECT_EQ(*updated.value(), expected);
}

std::string updateError(const char* spec) {
  auto updated = applySchedulingResult(federatedDeployment(spec), {{"a", 1}});
  return updated ? std::string("<no error>") : updated.error().message;
}

// Verifies that overrides KubeFed refuses stop the update, with its message and the object.
TEST(FederatedUpdateTest, InvalidOverridesFail) {
  EXPECT_EQ(updateError(R"({"overrides": [{"clusterName": "a"}, {"clusterName": "a"}]})"),
            "overrides of FederatedDeployment \"shop/web\": cluster \"a\" appears more than once");
  EXPECT_EQ(updateError(R"({"overrides": [{"clusterName": "a", "clusterOverrides": [
              {"path": "/spec/replicas", "value": 1}, {"path": "/spec/replicas", "value": 2}]}]})"),
            "overrides of FederatedDeployment \"shop/web\": path \"/spec/replicas\" appears more "
            "than once for cluster \"a\"");
  EXPECT_EQ(updateError(R"({"overrides": [{"clusterName": "a", "clusterOverrides": [
              {"path": "/spec/replicas", "value": 1}, {"path": "/metadata/name", "value": "x"}]}]})"),
            "overrides of FederatedDeployment \"shop/web\": override[1] for cluster \"a\" has an "
            "invalid path: /metadata/name");
}

// Verifies that malformed placement or overrides fail naming the object and the field.
TEST(FederatedUpdateTest, MalformedSpecFails) {
  EXPECT_THAT(updateError(R"({"placement": {"clusters": "a"}})"),
              HasSubstr("placement of FederatedDeployment \"shop/web\": spec.placement.clusters"));
  EXPECT_THAT(updateError(R"({"overrides": {"clusterName": "a"}})"),
              HasSubstr("overrides of FederatedDeployment \"shop/web\": spec.overrides"));
  auto updated = applySchedulingResult(parsed(R"({"spec": 3})"), {{"a", 1}});
  ASSERT_FALSE(updated);
  EXPECT_THAT(updated.error().message, HasSubstr("spec: expected object"));
}

}  // namespace
}  // namespace kf::scheduling
