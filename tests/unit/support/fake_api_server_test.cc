// The fake API server against the client, the informer machinery and the behaviours unit tests
// rely on: resourceVersions and conflicts, the status subresource, finalizers, list and watch
// with selectors, 410 Gone, scripted failures and latency.

#include "tests/support/fake_api_server.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "federation/client/resource_client.h"
#include "federation/informer/shared_informer.h"
#include "tests/support/fake_clock.h"

namespace kf::test {
namespace {

using std::chrono::seconds;

const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};
const GroupVersionResource kWidgets{"example.com", "v1", "widgets", true};
const GroupVersionResource kNamespaces{"", "v1", "namespaces", false};

Json configMap(const std::string& ns, const std::string& name, StringMap labels = {}) {
  Json object = {{"apiVersion", "v1"},
                 {"kind", "ConfigMap"},
                 {"metadata", {{"name", name}, {"namespace", ns}}},
                 {"data", {{"k", "v"}}}};
  if (!labels.empty()) object["metadata"]["labels"] = labels;
  return object;
}

class FakeApiServerTest : public ::testing::Test {
 protected:
  FakeClock clock_;
  FakeApiServer server_{clock_};
  std::shared_ptr<RestClient> client_ = server_.client();
  ResourceClient config_maps_{*client_, kConfigMaps, "ns"};
};

// Verifies create stores the object with server fields, get returns it, and a second create
// is AlreadyExists.
TEST_F(FakeApiServerTest, CreateThenGetThenAlreadyExists) {
  auto created = config_maps_.create(configMap("ns", "a"));
  ASSERT_TRUE(created) << created.error().describe();
  EXPECT_FALSE(objectResourceVersion(created.value()).empty());
  EXPECT_FALSE(objectUid(created.value()).empty());
  EXPECT_EQ(objectGeneration(created.value()), 0);  // ConfigMaps have none

  auto got = config_maps_.get("a");
  ASSERT_TRUE(got);
  EXPECT_EQ(got.value(), created.value());
  auto again = config_maps_.create(configMap("ns", "a"));
  ASSERT_FALSE(again);
  EXPECT_TRUE(isAlreadyExists(again.error()));
  EXPECT_EQ(server_.writes(), std::vector<std::string>{"ADDED configmaps/ns/a"});
}

// Verifies an update from a stale resourceVersion is a Conflict and changes nothing, and that
// a write that changes nothing is not logged.
TEST_F(FakeApiServerTest, StaleUpdateConflictsAndNoOpWriteIsNotLogged) {
  Json stored = config_maps_.create(configMap("ns", "a")).value();
  Json changed = stored;
  changed["data"]["k"] = "w";
  ASSERT_TRUE(config_maps_.update(changed));
  auto stale = config_maps_.update(changed);  // still the first resourceVersion
  ASSERT_FALSE(stale);
  EXPECT_TRUE(isConflict(stale.error()));

  Json current = config_maps_.get("a").value();
  ASSERT_TRUE(config_maps_.update(current));  // unchanged
  EXPECT_EQ(config_maps_.get("a").value(), current);
  EXPECT_EQ(server_.writeCount(), 2U);
}

// Verifies the status subresource: writes to the object keep the status, writes to /status
// change only the status, and generation moves with the spec only.
TEST_F(FakeApiServerTest, StatusSubresourceSeparatesSpecAndStatus) {
  server_.enableStatusSubresource("widgets");
  ResourceClient widgets(*client_, kWidgets, "ns");
  Json widget = {{"metadata", {{"name", "w"}, {"namespace", "ns"}}},
                 {"spec", {{"size", 1}}},
                 {"status", {{"ready", true}}}};
  Json created = widgets.create(widget).value();
  EXPECT_FALSE(created.contains("status"));
  EXPECT_EQ(objectGeneration(created), 1);

  created["status"] = {{"ready", false}};
  Json with_status = widgets.updateStatus(created).value();
  EXPECT_EQ(with_status["status"]["ready"], false);
  EXPECT_EQ(objectGeneration(with_status), 1);

  with_status["spec"]["size"] = 2;
  with_status["status"] = {{"ready", true}};
  Json updated = widgets.update(with_status).value();
  EXPECT_EQ(updated["status"]["ready"], false);
  EXPECT_EQ(objectGeneration(updated), 2);
}

// Verifies a delete of an object with finalizers only marks it; removing the last finalizer
// deletes it.
TEST_F(FakeApiServerTest, FinalizersHoldADeletedObject) {
  Json object = configMap("ns", "a");
  object["metadata"]["finalizers"] = {"example.com/keep"};
  config_maps_.create(object).value();
  ASSERT_TRUE(config_maps_.remove("a"));
  Json deleting = config_maps_.get("a").value();
  EXPECT_TRUE(hasDeletionTimestamp(deleting));

  ASSERT_TRUE(config_maps_.patch("a", PatchType::kMerge, R"({"metadata":{"finalizers":null}})"));
  auto gone = config_maps_.get("a");
  ASSERT_FALSE(gone);
  EXPECT_TRUE(isNotFound(gone.error()));
}

// Verifies a merge patch carrying a resourceVersion is guarded by it.
TEST_F(FakeApiServerTest, MergePatchWithResourceVersionIsAPrecondition) {
  config_maps_.create(configMap("ns", "a")).value();
  auto stale = config_maps_.patch("a", PatchType::kMerge,
                                  R"({"metadata":{"resourceVersion":"999"},"data":{"k":"x"}})");
  ASSERT_FALSE(stale);
  EXPECT_TRUE(isConflict(stale.error()));
  ASSERT_TRUE(config_maps_.patch("a", PatchType::kMerge, R"({"data":{"k":"x"}})"));
  EXPECT_EQ(config_maps_.get("a").value()["data"]["k"], "x");
}

// Verifies list filters by namespace and label selector.
TEST_F(FakeApiServerTest, ListFiltersByNamespaceAndLabels) {
  server_.put(kConfigMaps, configMap("ns", "a", {{"kubefed.io/managed", "true"}}));
  server_.put(kConfigMaps, configMap("ns", "b", {{"kubefed.io/managed", "false"}}));
  server_.put(kConfigMaps, configMap("other", "c", {{"kubefed.io/managed", "true"}}));
  auto listed = config_maps_.list({.label_selector = "kubefed.io/managed=true"});
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed.value().items.size(), 1U);
  EXPECT_EQ(objectName(listed.value().items[0]), "a");
  ResourceClient everywhere(*client_, kConfigMaps, "");
  EXPECT_EQ(everywhere.list({.label_selector = "kubefed.io/managed!=false"}).value().items.size(),
            2U);
}

// Verifies an informer over the fake server syncs, follows changes and deletions through the
// watch, and re-lists after the history it watches from was compacted.
TEST_F(FakeApiServerTest, InformerFollowsTheServerAcrossCompaction) {
  server_.put(kConfigMaps, configMap("ns", "a"));
  SharedInformer informer(makeListerWatcher(*client_, kConfigMaps, "ns", "", ""), clock_);
  informer.start();
  ASSERT_TRUE(informer.waitForSync(std::chrono::steady_clock::now() + seconds(30)));
  EXPECT_NE(informer.store().get("ns/a"), nullptr);

  auto eventually = [](const std::function<bool()>& condition) {
    const auto deadline = std::chrono::steady_clock::now() + seconds(30);
    while (!condition() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    return condition();
  };
  config_maps_.create(configMap("ns", "b")).value();
  EXPECT_TRUE(eventually([&] { return informer.store().get("ns/b") != nullptr; }));
  ASSERT_TRUE(config_maps_.remove("a"));
  EXPECT_TRUE(eventually([&] { return informer.store().get("ns/a") == nullptr; }));

  // The watch ends; the change made meanwhile is compacted away: only a re-list finds it.
  server_.compact();
  server_.closeWatches();
  server_.put(kConfigMaps, configMap("ns", "c"));
  server_.compact();
  EXPECT_TRUE(eventually([&] { return informer.store().get("ns/c") != nullptr; }));
  informer.stop();
}

// Verifies scripted failures hit only matching requests, the given number of times.
TEST_F(FakeApiServerTest, ScriptedFailuresMatchMethodAndPath) {
  server_.failNext({.method = "POST", .path_contains = "/configmaps"}, 500, "InternalError", 2);
  EXPECT_FALSE(config_maps_.create(configMap("ns", "a")));
  EXPECT_TRUE(config_maps_.list({}));  // a GET is not affected
  EXPECT_FALSE(config_maps_.create(configMap("ns", "a")));
  EXPECT_TRUE(config_maps_.create(configMap("ns", "a")));
}

// Verifies latency holds a request until the clock has moved that far.
TEST_F(FakeApiServerTest, LatencyIsMeasuredOnTheClock) {
  server_.setLatency(seconds(5));
  std::thread request([&] { EXPECT_TRUE(config_maps_.list({})); });
  ASSERT_TRUE(server_.waitForRequests(1));
  while (clock_.pendingTimers() == 0) std::this_thread::yield();
  clock_.advance(seconds(5));
  request.join();
}

// Verifies a namespaced create needs its Namespace when the server is asked to check.
TEST_F(FakeApiServerTest, MissingNamespaceFailsWhenRequired) {
  server_.requireNamespaces(true);
  auto created = config_maps_.create(configMap("ns", "a"));
  ASSERT_FALSE(created);
  EXPECT_TRUE(isNotFound(created.error()));
  server_.put(kNamespaces, {{"metadata", {{"name", "ns"}}}});
  EXPECT_TRUE(config_maps_.create(configMap("ns", "a")));
}

// Verifies the unreachable mode and /healthz.
TEST_F(FakeApiServerTest, HealthzAndUnreachable) {
  auto ok = client_->send({.path = "/healthz"});
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok.value().body, "ok");
  server_.setHealthz(200, "not ok");
  EXPECT_EQ(client_->send({.path = "/healthz"}).value().body, "not ok");
  server_.setUnreachable(true);
  auto refused = client_->send({.path = "/healthz"});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().reason, Reason::kConnectionFailed);
  EXPECT_EQ(server_.requestsTo("/healthz"), 3U);
}

}  // namespace
}  // namespace kf::test
