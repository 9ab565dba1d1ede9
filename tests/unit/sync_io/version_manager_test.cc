#include "sync/io/version_manager.h"

#include <gtest/gtest.h>

#include <memory>

#include "apis/encoding/version_hash.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf::sync {
namespace {

using test::FakeApiServer;
using test::FakeClock;

const GroupVersionResource kPropagatedVersions{"core.kubefed.io", "v1alpha1", "propagatedversions",
                                               true};
const GroupVersionResource kClusterPropagatedVersions{"core.kubefed.io", "v1alpha1",
                                                      "clusterpropagatedversions", false};

Json federatedConfigMap(const std::string& name, const Json& data) {
  return Json{{"apiVersion", "types.kubefed.io/v1beta1"},
              {"kind", "FederatedConfigMap"},
              {"metadata", {{"name", name}, {"namespace", "ns1"}, {"uid", "uid-" + name}}},
              {"spec", {{"template", {{"data", data}}}}}};
}

Json storedStatus(const Json& stored) { return stored.value("status", Json()); }

class VersionManagerTest : public ::testing::Test {
 protected:
  VersionManagerTest() {
    api_.enableStatusSubresource(kPropagatedVersions.resource);
    api_.enableStatusSubresource(kClusterPropagatedVersions.resource);
    host_ = api_.client(RetryPolicy{.max_attempts = 1});
  }

  std::unique_ptr<VersionManager> loadedManager(bool namespaced = true,
                                                const std::string& kind = "ConfigMap") {
    auto manager = std::make_unique<VersionManager>(
        *host_, VersionManagerOptions{.namespaced = namespaced, .target_kind = kind});
    Status loaded = manager->load();
    EXPECT_TRUE(loaded) << loaded.error().describe();
    return manager;
  }

  // Records `versions` for `object` placed in `selected`, with the object's own hashes.
  Status record(VersionManager& manager, const Json& object, const ClusterVersions& versions,
                std::set<std::string> selected = {"c1", "c2"}) {
    return manager.update(object, templateVersion(object).value, overridesVersion(object).value,
                          selected, versions);
  }

  ClusterVersions recorded(VersionManager& manager, const Json& object) {
    return manager.versionsFor({"ns1", objectName(object)}, templateVersion(object).value,
                               overridesVersion(object).value);
  }

  Json stored(const std::string& name) {
    return api_.get(kPropagatedVersions, "ns1", name).value_or(Json());
  }

  FakeClock clock_;
  FakeApiServer api_{clock_};
  std::shared_ptr<RestClient> host_;
  const Json cm1_ = federatedConfigMap("cm1", {{"k", "v"}});
};

TEST_F(VersionManagerTest, AFirstRecordCreatesTheObjectThenWritesItsStatus) {
  auto manager = loadedManager();
  ASSERT_TRUE(record(*manager, cm1_, {{"c2", "rv:7"}, {"c1", "rv:5"}}));

  const Json object = stored("configmap-cm1");
  ASSERT_FALSE(object.is_null());
  EXPECT_EQ(object["kind"], "PropagatedVersion");
  EXPECT_EQ(object["metadata"]["ownerReferences"],
            Json::parse(R"([{"apiVersion":"types.kubefed.io/v1beta1","kind":"FederatedConfigMap",
                            "name":"cm1","uid":"uid-cm1"}])"));
  EXPECT_EQ(storedStatus(object),
            Json({{"templateVersion", templateVersion(cm1_).value},
                  {"overridesVersion", overridesVersion(cm1_).value},
                  {"clusterVersions", Json::parse(R"([{"clusterName":"c1","version":"rv:5"},
                                   {"clusterName":"c2","version":"rv:7"}])")}}));
  const auto log = api_.requestLines();
  ASSERT_EQ(log.size(), 3u);  // list, create, status update
  EXPECT_EQ(api_.writeRequests(), 2u);
  EXPECT_EQ(log[1], "POST /apis/core.kubefed.io/v1alpha1/namespaces/ns1/propagatedversions");
  EXPECT_EQ(log[2],
            "PUT /apis/core.kubefed.io/v1alpha1/namespaces/ns1/propagatedversions/configmap-cm1/"
            "status");
  EXPECT_EQ(recorded(*manager, cm1_), (ClusterVersions{{"c1", "rv:5"}, {"c2", "rv:7"}}));
}

TEST_F(VersionManagerTest, AnUnchangedOutcomeIsNotWrittenAgain) {
  auto manager = loadedManager();
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:5"}}));
  const std::size_t writes = api_.writeRequests();
  // The second pass found c1 current (no new version) and c1 is still placed.
  ASSERT_TRUE(record(*manager, cm1_, {}, {"c1"}));
  EXPECT_EQ(api_.writeRequests(), writes);
}

TEST_F(VersionManagerTest, VersionsAreReadBackAfterARestartAndNotRewritten) {
  {
    auto first = loadedManager();
    ASSERT_TRUE(record(*first, cm1_, {{"c1", "rv:5"}, {"c2", "rv:7"}}));
  }
  const std::size_t writes = api_.writeRequests();
  auto restarted = loadedManager();
  EXPECT_EQ(recorded(*restarted, cm1_), (ClusterVersions{{"c1", "rv:5"}, {"c2", "rv:7"}}));
  ASSERT_TRUE(record(*restarted, cm1_, {}));
  EXPECT_EQ(api_.writeRequests(), writes);
}

TEST_F(VersionManagerTest, ChangedHashesMakeRecordedVersionsCountForNothing) {
  auto manager = loadedManager();
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:5"}, {"c2", "rv:7"}}));
  const Json changed = federatedConfigMap("cm1", {{"k", "w"}});
  EXPECT_TRUE(recorded(*manager, changed).empty());

  ASSERT_TRUE(record(*manager, changed, {{"c1", "rv:6"}}));
  const Json status = storedStatus(stored("configmap-cm1"));
  EXPECT_EQ(status["templateVersion"], templateVersion(changed).value);
  EXPECT_EQ(status["clusterVersions"], Json::parse(R"([{"clusterName":"c1","version":"rv:6"}])"));
}

TEST_F(VersionManagerTest, ClustersNoLongerPlacedAreDropped) {
  auto manager = loadedManager();
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:5"}, {"c2", "rv:7"}}));
  ASSERT_TRUE(record(*manager, cm1_, {}, {"c2"}));
  EXPECT_EQ(recorded(*manager, cm1_), (ClusterVersions{{"c2", "rv:7"}}));
}

TEST_F(VersionManagerTest, LoadKeepsOnlyThisTypesVersions) {
  api_.put(kPropagatedVersions, Json::parse(R"({
      "metadata": {"name": "secret-cm1", "namespace": "ns1"},
      "status": {"templateVersion": "x", "overridesVersion": "y"}})"));
  Json configmap_version = Json::parse(R"({
      "metadata": {"name": "configmap-cm1", "namespace": "ns1"},
      "status": {"clusterVersions": [{"clusterName": "c1", "version": "rv:1"}]}})");
  configmap_version["status"]["templateVersion"] = templateVersion(cm1_).value;
  configmap_version["status"]["overridesVersion"] = overridesVersion(cm1_).value;
  api_.put(kPropagatedVersions, configmap_version);
  auto configmaps = loadedManager();
  EXPECT_EQ(recorded(*configmaps, cm1_), (ClusterVersions{{"c1", "rv:1"}}));
  auto secrets = loadedManager(true, "Secret");
  EXPECT_EQ(secrets->versionsFor({"ns1", "cm1"}, "x", "y"), ClusterVersions{});
}

// Every type's versions share the resource: tens of thousands of them are listed in pages, never
// in one response.
TEST_F(VersionManagerTest, LoadListsInPagesAndKeepsThisTypesVersionsFromEvery) {
  const Json cm2 = federatedConfigMap("cm2", {{"k", "w"}});
  const auto version = [](const Json& object, const std::string& cluster_version) {
    Json stored = Json::parse(R"({"apiVersion": "core.kubefed.io/v1alpha1",
        "kind": "PropagatedVersion", "metadata": {"namespace": "ns1", "resourceVersion": "3"}})");
    stored["metadata"]["name"] = "configmap-" + objectName(object);
    stored["status"] = {
        {"templateVersion", templateVersion(object).value},
        {"overridesVersion", overridesVersion(object).value},
        {"clusterVersions", {{{"clusterName", "c1"}, {"version", cluster_version}}}}};
    return stored;
  };
  const auto page = [](Json items, const std::string& continue_token) {
    Json list = {{"apiVersion", "core.kubefed.io/v1alpha1"},
                 {"kind", "PropagatedVersionList"},
                 {"metadata", {{"resourceVersion", "9"}, {"continue", continue_token}}},
                 {"items", std::move(items)}};
    return HttpResponse{.status = 200, .headers = {}, .body = list.dump()};
  };
  const Json other_type =
      Json::parse(R"({"metadata": {"name": "secret-cm1", "namespace": "ns1"}, "status": {}})");
  api_.respondNext(page(Json::array({other_type, version(cm1_, "rv:1")}), "next-page"));
  api_.respondNext(page(Json::array({version(cm2, "rv:2")}), ""));
  auto manager = loadedManager();
  EXPECT_EQ(recorded(*manager, cm1_), (ClusterVersions{{"c1", "rv:1"}}));
  EXPECT_EQ(recorded(*manager, cm2), (ClusterVersions{{"c1", "rv:2"}}));
  const std::vector<HttpRequest> requests = api_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_NE(requests[0].target.find("limit=500"), std::string::npos) << requests[0].target;
  EXPECT_NE(requests[1].target.find("continue=next-page"), std::string::npos) << requests[1].target;
}

TEST_F(VersionManagerTest, AConflictFollowsTheServersResourceVersion) {
  auto manager = loadedManager();
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:5"}}));
  api_.put(kPropagatedVersions, stored("configmap-cm1"));  // someone else wrote it
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:6"}}));
  EXPECT_EQ(storedStatus(stored("configmap-cm1"))["clusterVersions"],
            Json::parse(R"([{"clusterName":"c1","version":"rv:6"}])"));
}

TEST_F(VersionManagerTest, AVersionDeletedMeanwhileIsCreatedAgain) {
  auto manager = loadedManager();
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:5"}}));
  api_.remove(kPropagatedVersions, "ns1", "configmap-cm1");
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:6"}}));
  EXPECT_EQ(storedStatus(stored("configmap-cm1"))["clusterVersions"],
            Json::parse(R"([{"clusterName":"c1","version":"rv:6"}])"));
}

TEST_F(VersionManagerTest, AnExistingObjectFoundOnCreateIsUpdated) {
  auto manager = loadedManager();
  // Written by someone else after the list: the create meets AlreadyExists.
  api_.put(kPropagatedVersions,
           Json::parse(R"({"metadata": {"name": "configmap-cm1", "namespace": "ns1"}})"));
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:5"}}));
  EXPECT_EQ(storedStatus(stored("configmap-cm1"))["clusterVersions"],
            Json::parse(R"([{"clusterName":"c1","version":"rv:5"}])"));
}

TEST_F(VersionManagerTest, ForbiddenIsReportedWithoutRetrying) {
  auto manager = loadedManager();
  api_.failNext({.method = "POST"}, 403, "Forbidden");
  Status result = record(*manager, cm1_, {{"c1", "rv:5"}});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().reason, Reason::kForbidden);
  EXPECT_NE(result.error().message.find("configmap-cm1"), std::string::npos)
      << result.error().message;
  EXPECT_EQ(api_.requestLines().size(), 2u);  // list, one create
}

TEST_F(VersionManagerTest, AFailedWriteIsRetriedByTheNextIdenticalRecord) {
  auto manager = loadedManager();
  api_.failNext({.method = "PUT"}, 500, "InternalError");
  EXPECT_FALSE(record(*manager, cm1_, {{"c1", "rv:5"}}));
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:5"}}));
  EXPECT_EQ(storedStatus(stored("configmap-cm1"))["clusterVersions"],
            Json::parse(R"([{"clusterName":"c1","version":"rv:5"}])"));
}

TEST_F(VersionManagerTest, GivesUpAfterTheConfiguredAttempts) {
  VersionManager manager(
      *host_, VersionManagerOptions{.target_kind = "ConfigMap", .max_write_attempts = 2});
  ASSERT_TRUE(manager.load());
  api_.failNext({.method = "PUT"}, 409, "Conflict", /*times=*/2);
  Status result = record(manager, cm1_, {{"c1", "rv:5"}});
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("gave up after 2 attempts"), std::string::npos)
      << result.error().message;
}

TEST_F(VersionManagerTest, ClusterScopedTypesUseClusterPropagatedVersions) {
  auto manager = loadedManager(/*namespaced=*/false, "ClusterRole");
  Json role{{"apiVersion", "types.kubefed.io/v1beta1"},
            {"kind", "FederatedClusterRole"},
            {"metadata", {{"name", "reader"}, {"uid", "uid-reader"}}},
            {"spec", {{"template", {{"rules", Json::array()}}}}}};
  ASSERT_TRUE(manager->update(role, templateVersion(role).value, overridesVersion(role).value,
                              {"c1"}, {{"c1", "rv:9"}}));
  const Json object =
      api_.get(kClusterPropagatedVersions, "", "clusterrole-reader").value_or(Json());
  ASSERT_FALSE(object.is_null());
  EXPECT_EQ(object["kind"], "ClusterPropagatedVersion");
  EXPECT_EQ(manager->versionsFor({"", "reader"}, templateVersion(role).value,
                                 overridesVersion(role).value),
            (ClusterVersions{{"c1", "rv:9"}}));
}

TEST_F(VersionManagerTest, LoadFailsUntilTheListSucceeds) {
  VersionManager manager(*host_, VersionManagerOptions{.target_kind = "ConfigMap"});
  api_.failNext({.method = "GET"}, 503, "ServiceUnavailable");
  EXPECT_FALSE(manager.load());
  EXPECT_FALSE(manager.loaded());
  EXPECT_TRUE(manager.load());
  EXPECT_TRUE(manager.loaded());
}

TEST_F(VersionManagerTest, ForgetDropsTheEntry) {
  auto manager = loadedManager();
  ASSERT_TRUE(record(*manager, cm1_, {{"c1", "rv:5"}}));
  manager->forget({"ns1", "cm1"});
  EXPECT_TRUE(recorded(*manager, cm1_).empty());
}

}  // namespace
}  // namespace kf::sync
