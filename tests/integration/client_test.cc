// The REST/dynamic client against a real kube-apiserver.

#include <gtest/gtest.h>

#include <future>
#include <set>

#include "federation/client/discovery.h"
#include "federation/client/resource_client.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

Json configMap(const std::string& name, const std::string& value) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"labels", {{"app", "kf-test"}}}}},
          {"data", {{"key", value}}}};
}

class ClientTest : public ::testing::Test {
 protected:
  std::unique_ptr<RestClient> client_ = LocalClusters::get().client("member1", 200, 400);
};

TEST_F(ClientTest, CreatesGetsUpdatesAndDeletesAConfigMap) {
  TestNamespace ns(*client_, "crud");
  ResourceClient configmaps(*client_, kConfigMaps, ns.name());

  auto created = configmaps.create(configMap("one", "v1"));
  ASSERT_TRUE(created) << created.error().describe();
  EXPECT_FALSE(objectUid(created.value()).empty());

  auto fetched = configmaps.get("one");
  ASSERT_TRUE(fetched) << fetched.error().describe();
  EXPECT_EQ(fetched.value()["data"]["key"], "v1");

  Json changed = fetched.value();
  changed["data"]["key"] = "v2";
  auto updated = configmaps.update(changed);
  ASSERT_TRUE(updated) << updated.error().describe();
  EXPECT_NE(objectResourceVersion(updated.value()), objectResourceVersion(fetched.value()));
  EXPECT_EQ(configmaps.get("one").value()["data"]["key"], "v2");

  ASSERT_TRUE(configmaps.remove("one"));
  auto gone = configmaps.get("one");
  ASSERT_FALSE(gone);
  EXPECT_TRUE(isNotFound(gone.error()));
}

TEST_F(ClientTest, MapsServerErrorsToTypedErrors) {
  TestNamespace ns(*client_, "errors");
  ResourceClient configmaps(*client_, kConfigMaps, ns.name());
  auto first = configmaps.create(configMap("dup", "a"));
  ASSERT_TRUE(first);

  auto duplicate = configmaps.create(configMap("dup", "b"));
  ASSERT_FALSE(duplicate);
  EXPECT_TRUE(isAlreadyExists(duplicate.error())) << duplicate.error().describe();

  Json stale = first.value();
  Json fresh = first.value();
  fresh["data"]["key"] = "newer";
  ASSERT_TRUE(configmaps.update(fresh));
  stale["data"]["key"] = "stale";
  auto conflict = configmaps.update(stale);
  ASSERT_FALSE(conflict);
  EXPECT_TRUE(isConflict(conflict.error())) << conflict.error().describe();

  auto invalid = configmaps.create(configMap("Not_A_Valid_Name", "x"));
  ASSERT_FALSE(invalid);
  EXPECT_TRUE(isInvalid(invalid.error()));
  ASSERT_FALSE(invalid.error().causes.empty());
  EXPECT_EQ(invalid.error().causes[0].field, "metadata.name");

  auto precondition = configmaps.remove("dup", {.precondition_uid = "not-the-uid"});
  ASSERT_FALSE(precondition);
  EXPECT_TRUE(isConflict(precondition.error())) << precondition.error().describe();
}

TEST_F(ClientTest, PatchesWithMergeAndJsonPatch) {
  TestNamespace ns(*client_, "patch");
  ResourceClient configmaps(*client_, kConfigMaps, ns.name());
  ASSERT_TRUE(configmaps.create(configMap("p", "a")));

  auto merged = configmaps.patch("p", PatchType::kMerge, R"({"data":{"extra":"m"}})");
  ASSERT_TRUE(merged) << merged.error().describe();
  EXPECT_EQ(merged.value()["data"]["extra"], "m");
  EXPECT_EQ(merged.value()["data"]["key"], "a");

  auto patched = configmaps.patch("p", PatchType::kJson,
                                  R"([{"op":"replace","path":"/data/key","value":"j"}])");
  ASSERT_TRUE(patched) << patched.error().describe();
  EXPECT_EQ(patched.value()["data"]["key"], "j");

  auto bad =
      configmaps.patch("p", PatchType::kJson, R"([{"op":"test","path":"/data/key","value":"no"}])");
  ASSERT_FALSE(bad);
  EXPECT_GE(bad.error().http_code, 400);
}

TEST_F(ClientTest, ListsTwoThousandFiveHundredConfigMapsInPages) {
  constexpr int kCount = 2500;
  constexpr int kWriters = 4;
  TestNamespace ns(*client_, "paging");
  ResourceClient configmaps(*client_, kConfigMaps, ns.name());

  std::vector<std::future<int>> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.push_back(std::async(std::launch::async, [&, w] {
      int failures = 0;
      for (int i = w; i < kCount; i += kWriters) {
        if (!configmaps.create(configMap("cm-" + std::to_string(i), std::to_string(i)))) ++failures;
      }
      return failures;
    }));
  }
  for (auto& writer : writers) ASSERT_EQ(writer.get(), 0);

  std::set<std::string> names;
  int pages = 0;
  ListOptions options{.label_selector = "app=kf-test", .limit = 500};
  while (true) {
    auto page = configmaps.list(options);
    ASSERT_TRUE(page) << page.error().describe();
    ++pages;
    EXPECT_LE(page.value().items.size(), 500u);
    for (const auto& item : page.value().items) {
      EXPECT_EQ(item["kind"], "ConfigMap");
      EXPECT_TRUE(names.insert(objectName(item)).second) << "listed twice: " << objectName(item);
    }
    if (page.value().continue_token.empty()) break;
    options.continue_token = page.value().continue_token;
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kCount));
  // A kube-controller-manager adds ConfigMap kube-root-ca.crt to every namespace: one more object
  // the server pages over, which can take one more (empty) page of the selection.
  EXPECT_GE(pages, kCount / 500);
  EXPECT_LE(pages, kCount / 500 + 1);

  auto all = configmaps.listAll({.label_selector = "app=kf-test", .limit = 700});
  ASSERT_TRUE(all);
  EXPECT_EQ(all.value().items.size(), static_cast<std::size_t>(kCount));

  auto selected = configmaps.list({.field_selector = "metadata.name=cm-42"});
  ASSERT_TRUE(selected);
  ASSERT_EQ(selected.value().items.size(), 1u);
  EXPECT_EQ(selected.value().items[0]["data"]["key"], "42");
}

TEST_F(ClientTest, DiscoversResourcesByNameKindAndShortName) {
  DiscoveryClient discovery(*client_);
  auto cm = discovery.find("cm");
  ASSERT_TRUE(cm) << cm.error().describe();
  EXPECT_EQ(cm.value().name, "configmaps");
  EXPECT_TRUE(cm.value().namespaced);
  EXPECT_TRUE(cm.value().hasVerb("watch"));

  auto deployments = discovery.find("deployments.apps");
  ASSERT_TRUE(deployments);
  EXPECT_EQ(deployments.value().kind, "Deployment");
  EXPECT_EQ(deployments.value().version, "v1");
  const auto& subresources = deployments.value().subresources;
  EXPECT_NE(std::find(subresources.begin(), subresources.end(), "status"), subresources.end());
  EXPECT_NE(std::find(subresources.begin(), subresources.end(), "scale"), subresources.end());

  auto cluster_roles = discovery.find("ClusterRole");
  ASSERT_TRUE(cluster_roles);
  EXPECT_FALSE(cluster_roles.value().namespaced);
  EXPECT_EQ(cluster_roles.value().group, "rbac.authorization.k8s.io");

  auto missing = discovery.find("nosuchthings");
  ASSERT_FALSE(missing);
  EXPECT_TRUE(isNotFound(missing.error()));
}

}  // namespace
}  // namespace kf::integration
