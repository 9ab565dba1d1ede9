#include "sync/plan/overrides.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf::sync {
namespace {

using testing::ElementsAre;
using testing::HasSubstr;

Json withOverrides(const char* overrides) {
  return Json{{"spec", {{"overrides", Json::parse(overrides)}}}};
}

std::string readError(const char* overrides) {
  auto result = readOverridesMap(withOverrides(overrides));
  return result ? std::string("<no error>") : result.error().message;
}

federated::ClusterOverride clusterOverride(std::string op, std::string path,
                                           std::optional<Json> value = std::nullopt) {
  return federated::ClusterOverride{std::move(op), std::move(path), std::move(value)};
}

// Verifies that overrides are grouped by cluster, keeping their order.
TEST(OverridesTest, ReadsOverridesByCluster) {
  auto map = readOverridesMap(withOverrides(R"([
    {"clusterName": "a", "clusterOverrides": [{"path": "/spec/replicas", "value": 2},
                                              {"op": "remove", "path": "/spec/paused"}]},
    {"clusterName": "b"}])"));
  ASSERT_TRUE(map) << map.error().message;
  ASSERT_EQ(map.value().size(), 2u);
  ASSERT_EQ(map.value().at("a").size(), 2u);
  EXPECT_EQ(map.value().at("a")[0].path, "/spec/replicas");
  EXPECT_EQ(map.value().at("a")[1].op, "remove");
  EXPECT_TRUE(map.value().at("b").empty());
  EXPECT_TRUE(readOverridesMap(Json{{"spec", Json::object()}}).value().empty());
  EXPECT_TRUE(readOverridesMap(Json::object()).value().empty());
}

// Verifies KubeFed's exact messages for duplicate clusters and paths.
TEST(OverridesTest, DuplicatesFail) {
  EXPECT_EQ(readError(R"([{"clusterName": "a"}, {"clusterName": "a"}])"),
            "cluster \"a\" appears more than once");
  EXPECT_EQ(readError(R"([{"clusterName": "a", "clusterOverrides": [
                {"path": "/spec/x", "value": 1}, {"op": "remove", "path": "/spec/x"}]}])"),
            "path \"/spec/x\" appears more than once for cluster \"a\"");
}

// Verifies that name, namespace, generateName and kind may not be overridden; apiVersion may.
TEST(OverridesTest, ForbiddenPathsFail) {
  EXPECT_EQ(readError(R"([{"clusterName": "a", "clusterOverrides": [
                {"path": "/spec/x", "value": 1}, {"path": "/metadata/name", "value": "n"}]}])"),
            "override[1] for cluster \"a\" has an invalid path: /metadata/name");
  for (const char* path : {"/metadata/namespace", "/metadata/generateName", "/kind"}) {
    const std::string overrides =
        std::string(R"([{"clusterName": "c", "clusterOverrides": [{"path": ")") + path + R"("}]}])";
    EXPECT_EQ(readError(overrides.c_str()),
              std::string("override[0] for cluster \"c\" has an invalid path: ") + path);
  }
  EXPECT_EQ(readError(R"([{"clusterName": "a", "clusterOverrides": [
                {"path": "/apiVersion", "value": "apps/v1beta2"},
                {"path": "/metadata/name/x", "value": 1}]}])"),
            "<no error>");
}

// Verifies that type errors in spec.overrides name the field.
TEST(OverridesTest, MalformedOverridesFail) {
  EXPECT_THAT(readError(R"([{"clusterName": 5}])"), HasSubstr("spec.overrides[0].clusterName"));
  EXPECT_THAT(readError(R"({"a": 1})"), HasSubstr("spec.overrides"));
}

// Verifies that an empty op means replace, so a missing key is created (e2e label override).
TEST(OverridesTest, EmptyOpReplacesAndCreates) {
  Json object = Json::parse(R"({"metadata": {"name": "x"}, "spec": {"replicas": 1}})");
  auto result = applyClusterOverrides(object, "c1",
                                      {clusterOverride("", "/spec/replicas", 3),
                                       clusterOverride("", "/metadata/labels", Json{{"k", "v"}})});
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(object, Json::parse(R"({"metadata": {"name": "x", "labels": {"k": "v"}},
                                    "spec": {"replicas": 3}})"));
}

// Verifies that values come out as KubeFed's float64 round trip leaves them.
TEST(OverridesTest, NumbersGoThroughFloat64) {
  Json object = Json::parse(R"({"spec": {}})");
  auto result = applyClusterOverrides(
      object, "c1",
      {clusterOverride("add", "/spec/a", Json::parse("5.0")),
       clusterOverride("add", "/spec/b", Json::parse("9007199254740993")),
       clusterOverride("add", "/spec/c", Json::parse("1.5")),
       clusterOverride("add", "/spec/d", Json::parse("1e21")),
       clusterOverride("add", "/spec/e", Json::parse(R"({"n": [2.0, "s", true]})"))});
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_TRUE(object["spec"]["a"].is_number_integer());
  EXPECT_EQ(object["spec"]["a"].get<std::int64_t>(), 5);
  EXPECT_EQ(object["spec"]["b"].get<std::int64_t>(), 9007199254740992);
  EXPECT_EQ(object["spec"]["c"].get<double>(), 1.5);
  EXPECT_TRUE(object["spec"]["d"].is_number_float());
  EXPECT_TRUE(object["spec"]["e"]["n"][0].is_number_integer());
  EXPECT_EQ(object["spec"]["e"], Json::parse(R"({"n": [2, "s", true]})"));
}

// Verifies that a failing override names cluster, index and path, and changes nothing.
TEST(OverridesTest, FailureNamesClusterIndexAndPathAndKeepsObject) {
  const Json original = Json::parse(R"({"spec": {"replicas": 1}})");
  Json object = original;
  auto result = applyClusterOverrides(
      object, "c1",
      {clusterOverride("", "/spec/replicas", 2), clusterOverride("remove", "/spec/missing")});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            "cluster \"c1\": override[1] (remove /spec/missing): error in remove for path: "
            "'/spec/missing': Unable to remove nonexistent key: missing: missing value");
  EXPECT_EQ(object, original);
}

// Verifies that an override without a value writes null.
TEST(OverridesTest, OverrideWithoutValueWritesNull) {
  Json object = Json::parse(R"({"spec": {"replicas": 1}})");
  ASSERT_TRUE(applyClusterOverrides(object, "c1", {clusterOverride("replace", "/spec/replicas")}));
  EXPECT_TRUE(object["spec"]["replicas"].is_null());
}

// Verifies the forbidden path list itself.
TEST(OverridesTest, ForbiddenPathList) {
  EXPECT_THAT(
      std::vector<std::string_view>(std::begin(kForbiddenOverridePaths),
                                    std::end(kForbiddenOverridePaths)),
      ElementsAre("/metadata/namespace", "/metadata/name", "/metadata/generateName", "/kind"));
}

}  // namespace
}  // namespace kf::sync
