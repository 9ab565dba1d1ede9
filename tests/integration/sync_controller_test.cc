// The sync controller in-process against real API servers: the host holds federated objects,
// member1 and member2 receive the propagated objects. The cluster registry is filled by hand
// (ready, labels, admin clients), as the KubeFedCluster controller would fill it.
//
// Each test runs a namespace-scoped control plane limited to its own namespace, so the
// controllers see only that test's objects.

#include "sync/controller/sync_controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "apis/encoding/version_hash.h"
#include "federation/client/resource_client.h"
#include "federation/events/api_event_recorder.h"
#include "federation/metrics/kubefed_metrics.h"
#include "federation/metrics/sample_parse.h"
#include "federation/runtime/thread_annotations.h"
#include "tests/integration/federated_types.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using sync::SyncControllerDeps;

const std::vector<std::string> kMembers = {"member1", "member2"};

// What `kubefedctl enable <name>` would install: the federated CRD (installed) and the
// FederatedTypeConfig (returned, not stored: the test starts the sync controller itself).
Result<core::FederatedTypeConfig> enableType(RestClient& host, const std::string& name) {
  KF_TRY(ftc, installFederatedType(host, name));
  return core::FederatedTypeConfig::fromJson(ftc);
}

std::map<std::string, core::FederatedTypeConfig>& typeConfigs() {
  static std::map<std::string, core::FederatedTypeConfig> configs;
  return configs;
}

// "True member1 member2", "False:CheckClusters member1 member2=CreationFailed": the Propagation
// condition and each cluster's status, for the federated object's current generation only.
std::string propagationSummary(const Json& federated) {
  if (!federated.is_object() || !federated.contains("status")) {
    return "no status";
  }
  const Json& status = federated["status"];
  if (status.value("observedGeneration", std::int64_t{-1}) !=
      federated["metadata"].value("generation", std::int64_t{-2})) {
    return "stale status";
  }
  std::string out = "no condition";
  for (const Json& condition : status.value("conditions", Json::array())) {
    if (condition.value("type", "") == "Propagation") {
      out = condition.value("status", "");
      if (condition.contains("reason")) out += ":" + condition["reason"].get<std::string>();
    }
  }
  std::vector<std::string> clusters;
  for (const Json& cluster : status.value("clusters", Json::array())) {
    std::string entry = cluster.value("name", "");
    if (cluster.contains("status")) entry += "=" + cluster["status"].get<std::string>();
    clusters.push_back(entry);
  }
  std::sort(clusters.begin(), clusters.end());
  for (const std::string& cluster : clusters) out += " " + cluster;
  return out;
}

bool hasLabel(const Json& object, const std::string& key, const std::string& value) {
  const Json labels = object["metadata"].value("labels", Json::object());
  return labels.contains(key) && labels[key] == value;
}

// reconcile_federated_resources_duration_seconds_count in the process-wide registry.
long federatedReconcileCount() {
  std::istringstream text(metrics::renderPrometheusText());
  const std::string prefix = "reconcile_federated_resources_duration_seconds_count";
  for (std::string line; std::getline(text, line);) {
    if (line.rfind(prefix, 0) == 0) return std::stol(line.substr(line.rfind(' ') + 1));
  }
  return 0;
}

// Creates, updates and patches (answered or refused) the host's API server counted for
// `resource` in its apiserver_request_total: what the host client's rate limit is spent on. Not
// deletes: the sync controller sends none for these resources, while kube-controller-manager's
// namespace and garbage collectors delete earlier tests' objects at any time. -1 when the
// metrics cannot be read.
long hostWritesCounted(RestClient& host, const std::string& resource) {
  auto metrics = host.send({.path = "/metrics"});
  if (!metrics) return -1;
  long total = 0;
  for (const auto& sample :
       metrics::samplesNamed(metrics.value().body, "apiserver_request_total")) {
    const auto label = [&](const char* name) {
      auto found = sample.labels.find(name);
      return found == sample.labels.end() ? std::string() : found->second;
    };
    const std::string verb = label("verb");
    if (label("resource") == resource &&
        (verb == "POST" || verb == "PUT" || verb == "PATCH" || verb == "APPLY")) {
      total += std::lround(sample.value);
    }
  }
  return total;
}

// The real transport, remembering every request that can change something ("PUT /api/...").
class WriteRecordingTransport final : public Transport {
 public:
  explicit WriteRecordingTransport(TransportPtr inner) : inner_(std::move(inner)) {}

  Result<HttpResponse> roundTrip(const HttpRequest& request) override {
    if (request.method != "GET") {
      MutexLock lock(mu_);
      writes_.push_back(request.method + " " + request.target);
    }
    return inner_->roundTrip(request);
  }
  Result<ResponseStreamPtr> openStream(const HttpRequest& request) override {
    return inner_->openStream(request);
  }

  std::vector<std::string> writes() {
    MutexLock lock(mu_);
    return writes_;
  }
  void clear() {
    MutexLock lock(mu_);
    writes_.clear();
  }

 private:
  TransportPtr inner_;
  Mutex mu_;
  std::vector<std::string> writes_ KF_GUARDED_BY(mu_);
};

// An admin client of a local cluster whose writes `recorder` sees.
std::shared_ptr<RestClient> recordingClient(const std::string& context,
                                            WriteRecordingTransport** recorder) {
  RestConfig config = LocalClusters::get().config(context);
  config.qps = 50;
  config.burst = 100;
  auto transport = makeTransport(config);
  EXPECT_TRUE(transport) << transport.error().describe();
  auto recording = std::make_unique<WriteRecordingTransport>(std::move(transport.value()));
  *recorder = recording.get();
  return std::make_shared<RestClient>(config, std::move(recording), realClock());
}

// Writes other than events (which only record what happened).
std::vector<std::string> withoutEvents(const std::vector<std::string>& writes) {
  std::vector<std::string> out;
  for (const std::string& write : writes) {
    if (write.find("/events") == std::string::npos) out.push_back(write);
  }
  return out;
}

class SyncControllerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    auto host = LocalClusters::get().client("host");
    for (const char* type : {"configmaps", "deployments.apps", "secrets", "namespaces"}) {
      if (typeConfigs().contains(type)) continue;
      Result<core::FederatedTypeConfig> ftc = enableType(*host, type);
      ASSERT_TRUE(ftc) << type << ": " << ftc.error().describe();
      typeConfigs().emplace(type, std::move(ftc.value()));
    }
  }

  void SetUp() override {
    host_ = LocalClusters::get().client("host");
    namespace_ = std::make_unique<TestNamespace>(*host_, "sync");
    for (const std::string& member : kMembers) {
      members_[member] = recordingClient(member, &member_writes_[member]);
      auto created =
          ResourceClient(*members_[member], kNamespaces)
              .create(
                  {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns()}}}});
      ASSERT_TRUE(created) << created.error().describe();
    }
    registry_.upsert({"member1", true, {{"region", "east"}}, nullptr}, members_["member1"]);
    registry_.upsert({"member2", true, {{"region", "west"}}, nullptr}, members_["member2"]);
    // The FederatedNamespace of the test namespace, placing it everywhere.
    createFederated(kFederatedNamespaces,
                    {{"apiVersion", "types.kubefed.io/v1beta1"},
                     {"kind", "FederatedNamespace"},
                     {"metadata", {{"name", ns()}, {"namespace", ns()}}},
                     {"spec", {{"placement", {{"clusterSelector", Json::object()}}}}}});
  }

  void TearDown() override {
    stopControllers();
    // Federated objects left with the sync finalizer would block deleting their CRD later.
    for (const auto& resource : {kFederatedConfigMaps, kFederatedDeployments}) {
      ResourceClient objects(*host_, resource, ns());
      auto listed = objects.list({});
      if (!listed) continue;
      for (const Json& object : listed.value().items) {
        (void)objects.patch(objectName(object), PatchType::kMerge,
                            R"({"metadata":{"finalizers":null}})");
        (void)objects.remove(objectName(object));
      }
    }
    ResourceClient federated_namespaces(*host_, kFederatedNamespaces, ns());
    (void)federated_namespaces.patch(ns(), PatchType::kMerge,
                                     R"({"metadata":{"finalizers":null}})");
    (void)federated_namespaces.remove(ns());
    ResourceClient versions(*host_, kPropagatedVersions, ns());
    if (auto listed = versions.list({})) {
      for (const Json& object : listed.value().items) (void)versions.remove(objectName(object));
    }
    for (const std::string& member : kMembers) {
      (void)ResourceClient(*members_[member], kNamespaces).remove(ns());
    }
  }

  const std::string& ns() const { return namespace_->name(); }

  ControlPlaneConfig controlPlane() const {
    ControlPlaneConfig config;
    config.kubefed_namespace = ns();
    config.target_namespace = ns();
    config.namespaced_scope = true;
    config.cluster_available_delay = std::chrono::seconds(1);
    config.cluster_unavailable_delay = std::chrono::seconds(1);
    config.sync_max_concurrent_reconciles = 1;
    return config;
  }

  // Starts the sync controller of `type` ("configmaps", "deployments.apps") with fresh informer
  // managers, as a restarted process would have.
  void startController(const std::string& type, ControlPlaneConfig config,
                       std::optional<core::FederatedTypeConfig> ftc = std::nullopt,
                       Duration retry_delay = std::chrono::milliseconds(200)) {
    if (!host_informers_) {
      std::shared_ptr<RestClient> host = shared_host_;
      host_informers_ = std::make_unique<InformerManager>(
          [host](const InformerKey& key) {
            return makeListerWatcher(host, key.resource, key.namespace_name, key.label_selector,
                                     key.field_selector);
          },
          realClock());
      member_informers_ = std::make_unique<InformerManager>(
          [this](const InformerKey& key) -> ListerWatcherPtr {
            auto client = registry_.client(key.cluster);
            if (!client) return nullptr;
            return makeListerWatcher(client.value(), key.resource, key.namespace_name,
                                     key.label_selector, key.field_selector);
          },
          realClock());
    }
    SyncControllerDeps deps{.config = std::move(config),
                            .host = shared_host_,
                            .clusters = registry_,
                            .host_informers = *host_informers_,
                            .member_informers = *member_informers_,
                            .recorder = [this](const std::string& component) -> EventRecorderPtr {
                              auto recorder = std::make_shared<ApiEventRecorder>(
                                  *shared_host_, component, "sync-controller-test", realClock());
                              recorders_.push_back(recorder);
                              return recorder;
                            },
                            .clock = realClock(),
                            .retry_delay = retry_delay,
                            .small_delay = std::chrono::milliseconds(100)};
    auto controller = sync::syncController(ftc ? *ftc : typeConfigs().at(type), std::move(deps));
    ASSERT_TRUE(controller) << controller.error().describe();
    ASSERT_TRUE(controller.value()->start());
    controllers_.push_back(std::move(controller.value()));
  }
  void startController(const std::string& type = "configmaps") {
    startController(type, controlPlane());
  }

  void stopControllers() {
    for (auto& controller : controllers_) controller->stop();
    controllers_.clear();
    for (auto& recorder : recorders_) recorder->stop();
    recorders_.clear();
    member_informers_.reset();
    host_informers_.reset();
  }

  Json createFederated(const GroupVersionResource& resource, const Json& object) {
    auto created = ResourceClient(*host_, resource, ns()).create(object);
    EXPECT_TRUE(created) << created.error().describe();
    return created ? created.value() : Json();
  }

  // A FederatedConfigMap with `data`, placement and overrides as given.
  Json federatedConfigMap(const std::string& name, const Json& data, const Json& placement,
                          const Json& overrides = Json::array()) {
    return {{"apiVersion", "types.kubefed.io/v1beta1"},
            {"kind", "FederatedConfigMap"},
            {"metadata", {{"name", name}, {"namespace", ns()}}},
            {"spec",
             {{"template", {{"data", data}}}, {"placement", placement}, {"overrides", overrides}}}};
  }
  Json deployment(const std::string& name) {
    Json object = Json::parse(R"({
        "apiVersion": "types.kubefed.io/v1beta1", "kind": "FederatedDeployment",
        "spec": {"placement": {"clusters": [{"name": "member1"}, {"name": "member2"}]},
          "template": {"spec": {"replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
              "spec": {"containers": [{"name": "web", "image": "registry.invalid/web:1"}]}}}}}})");
    object["metadata"] = {{"name", name}, {"namespace", ns()}};
    return object;
  }
  static Json onClusters(const std::vector<std::string>& names) {
    Json clusters = Json::array();
    for (const std::string& name : names) clusters.push_back({{"name", name}});
    return {{"clusters", clusters}};
  }
  Json createConfigMap(const std::string& name, const Json& data,
                       const std::vector<std::string>& placed = kMembers,
                       const Json& overrides = Json::array()) {
    return createFederated(kFederatedConfigMaps,
                           federatedConfigMap(name, data, onClusters(placed), overrides));
  }

  Json federated(const GroupVersionResource& resource, const std::string& name) {
    auto found = ResourceClient(*host_, resource, ns()).get(name);
    return found ? found.value() : Json();
  }
  void mergePatchFederated(const GroupVersionResource& resource, const std::string& name,
                           const Json& patch) {
    auto patched =
        ResourceClient(*host_, resource, ns()).patch(name, PatchType::kMerge, patch.dump());
    ASSERT_TRUE(patched) << patched.error().describe();
  }

  // Waits until the federated object's status reads `expected` (see propagationSummary).
  void expectSummary(const std::string& name, const std::string& expected,
                     const GroupVersionResource& resource = kFederatedConfigMaps) {
    std::string last;
    const bool reached = eventually([&] {
      last = propagationSummary(federated(resource, name));
      return last == expected;
    });
    EXPECT_TRUE(reached) << name << ": expected \"" << expected << "\", last \"" << last << "\"";
  }

  Result<Json> member(const std::string& cluster, const std::string& name,
                      const GroupVersionResource& resource = kConfigMaps) {
    return ResourceClient(*members_.at(cluster), resource, ns()).get(name);
  }
  bool memberAbsent(const std::string& cluster, const std::string& name,
                    const GroupVersionResource& resource = kConfigMaps) {
    auto found = member(cluster, name, resource);
    return !found && isNotFound(found.error());
  }
  // The member object's data.k, or "" when it is missing.
  std::string memberValue(const std::string& cluster, const std::string& name) {
    auto found = member(cluster, name);
    return found ? found.value()["data"].value("k", "") : "";
  }
  void createMemberConfigMap(const std::string& cluster, const std::string& name, const Json& data,
                             const Json& labels = Json::object()) {
    auto created = ResourceClient(*members_.at(cluster), kConfigMaps, ns())
                       .create({{"apiVersion", "v1"},
                                {"kind", "ConfigMap"},
                                {"metadata", {{"name", name}, {"labels", labels}}},
                                {"data", data}});
    ASSERT_TRUE(created) << created.error().describe();
  }

  bool eventRecorded(const std::string& object_name, const std::string& reason,
                     const std::string& message_part = "") {
    auto events = ResourceClient(*host_, kEvents, ns()).list({});
    if (!events) return false;
    return std::any_of(events.value().items.begin(), events.value().items.end(),
                       [&](const Json& event) {
                         return event["involvedObject"].value("name", "") == object_name &&
                                event.value("reason", "") == reason &&
                                event.value("message", "").find(message_part) != std::string::npos;
                       });
  }

  // The occurrences of `reason` recorded about the object (an Event's count sums repeats).
  int eventCount(const std::string& object_name, const std::string& reason) {
    auto events = ResourceClient(*host_, kEvents, ns()).list({});
    if (!events) return -1;
    int count = 0;
    for (const Json& event : events.value().items) {
      if (event["involvedObject"].value("name", "") == object_name &&
          event.value("reason", "") == reason) {
        count += event.value("count", 1);
      }
    }
    return count;
  }

  Json propagatedVersion(const std::string& name) {
    auto found = ResourceClient(*host_, kPropagatedVersions, ns()).get(name);
    return found ? found.value() : Json();
  }

  // The PropagatedVersion of a federated object carries its current hashes and, per placed
  // cluster, the live member object's version.
  bool versionsMatchLiveObjects(const GroupVersionResource& federated_resource,
                                const std::string& name, const GroupVersionResource& target,
                                const std::string& version_name,
                                const std::vector<std::string>& placed) {
    const Json object = federated(federated_resource, name);
    const Json status = propagatedVersion(version_name).value("status", Json::object());
    if (status.value("templateVersion", "") != templateVersion(object).value ||
        status.value("overridesVersion", "") != overridesVersion(object).value) {
      return false;
    }
    Json expected = Json::array();
    for (const std::string& cluster : placed) {
      auto live = member(cluster, name, target);
      if (!live) return false;
      const std::int64_t generation = live.value()["metadata"].value("generation", 0);
      const std::string version = generation != 0 ? "gen:" + std::to_string(generation)
                                                  : "rv:" + objectResourceVersion(live.value());
      expected.push_back({{"clusterName", cluster}, {"version", version}});
    }
    return status.value("clusterVersions", Json::array()) == expected;
  }

  std::unique_ptr<RestClient> host_;
  WriteRecordingTransport* host_writes_ = nullptr;
  std::shared_ptr<RestClient> shared_host_ = recordingClient("host", &host_writes_);
  std::map<std::string, WriteRecordingTransport*> member_writes_;
  std::unique_ptr<TestNamespace> namespace_;
  std::map<std::string, std::shared_ptr<RestClient>> members_;
  ClusterRegistry registry_{realClock()};
  std::unique_ptr<InformerManager> host_informers_;
  std::unique_ptr<InformerManager> member_informers_;
  std::vector<std::shared_ptr<ApiEventRecorder>> recorders_;
  std::vector<ControllerPtr> controllers_;
};

// Placement by list and by label selector; the template, the managed label and the per-cluster
// override reach exactly the placed clusters; the finalizer, the versions and the events follow.
TEST_F(SyncControllerTest, CreatesObjectsInPlacedClustersOnlyWithOverridesAndManagedLabel) {
  const Json overrides = Json::parse(R"([
      {"clusterName": "member1", "clusterOverrides": [{"path": "/data/k", "value": "m1"}]},
      {"clusterName": "member2", "clusterOverrides": [{"path": "/data/k", "value": "m2"}]}])");
  createConfigMap("listed", {{"k", "v"}}, {"member1"}, overrides);
  Json selected = federatedConfigMap(
      "selected", {{"k", "v"}}, {{"clusterSelector", {{"matchLabels", {{"region", "west"}}}}}});
  selected["spec"]["template"]["metadata"] = {{"labels", {{"app", "x"}}}};
  createFederated(kFederatedConfigMaps, selected);
  startController();

  expectSummary("listed", "True member1");
  expectSummary("selected", "True member2");
  EXPECT_EQ(memberValue("member1", "listed"), "m1");
  EXPECT_TRUE(memberAbsent("member2", "listed"));
  EXPECT_TRUE(memberAbsent("member1", "selected"));
  auto propagated = member("member2", "selected");
  ASSERT_TRUE(propagated) << propagated.error().describe();
  EXPECT_EQ(propagated.value()["data"]["k"], "v");
  EXPECT_TRUE(hasLabel(propagated.value(), "kubefed.io/managed", "true"));
  EXPECT_TRUE(hasLabel(propagated.value(), "app", "x"));

  EXPECT_EQ(federated(kFederatedConfigMaps, "listed")["metadata"]["finalizers"],
            Json({"kubefed.io/sync-controller"}));
  EXPECT_TRUE(eventually([&] {
    return versionsMatchLiveObjects(kFederatedConfigMaps, "listed", kConfigMaps, "configmap-listed",
                                    {"member1"});
  })) << propagatedVersion("configmap-listed").dump();
  EXPECT_EQ(propagatedVersion("configmap-listed")["metadata"]["ownerReferences"][0]["kind"],
            "FederatedConfigMap");
  EXPECT_TRUE(eventually([&] {
    return eventRecorded("listed", "CreateInCluster",
                         "Creating ConfigMap \"" + ns() + "/listed\" in cluster \"member1\"");
  }));
}

TEST_F(SyncControllerTest, FollowsTemplateAndPlacementChanges) {
  createConfigMap("cm", {{"k", "v1"}});
  startController();
  expectSummary("cm", "True member1 member2");

  mergePatchFederated(kFederatedConfigMaps, "cm",
                      {{"spec", {{"template", {{"data", {{"k", "v2"}}}}}}}});
  EXPECT_TRUE(eventually([&] {
    return memberValue("member1", "cm") == "v2" && memberValue("member2", "cm") == "v2";
  }));
  EXPECT_TRUE(eventually([&] {
    return versionsMatchLiveObjects(kFederatedConfigMaps, "cm", kConfigMaps, "configmap-cm",
                                    kMembers);
  })) << propagatedVersion("configmap-cm").dump();

  mergePatchFederated(kFederatedConfigMaps, "cm",
                      {{"spec", {{"placement", onClusters({"member1"})}}}});
  EXPECT_TRUE(eventually([&] { return memberAbsent("member2", "cm"); }));
  EXPECT_EQ(memberValue("member1", "cm"), "v2");
  expectSummary("cm", "True member1");
}

TEST_F(SyncControllerTest, PutsBackEditedAndRecreatesDeletedMemberObjects) {
  createConfigMap("cm", {{"k", "v"}});
  startController();
  expectSummary("cm", "True member1 member2");

  auto edited = member("member1", "cm");
  ASSERT_TRUE(edited);
  edited.value()["data"]["k"] = "by hand";
  ASSERT_TRUE(ResourceClient(*members_["member1"], kConfigMaps, ns()).update(edited.value()));
  ASSERT_TRUE(ResourceClient(*members_["member2"], kConfigMaps, ns()).remove("cm"));

  EXPECT_TRUE(eventually([&] { return memberValue("member1", "cm") == "v"; }));
  EXPECT_TRUE(eventually([&] { return memberValue("member2", "cm") == "v"; }));
  expectSummary("cm", "True member1 member2");
  EXPECT_TRUE(eventually([&] {
    return versionsMatchLiveObjects(kFederatedConfigMaps, "cm", kConfigMaps, "configmap-cm",
                                    kMembers);
  }));
}

TEST_F(SyncControllerTest, DeletingTheFederatedObjectRemovesMemberObjectsThenTheFinalizer) {
  Json object = federatedConfigMap("cm", {{"k", "v"}}, onClusters(kMembers));
  object["metadata"]["annotations"] = {
      {"kubefed.io/deleteoption", R"({"propagationPolicy":"Background"})"}};
  createFederated(kFederatedConfigMaps, object);
  startController();
  expectSummary("cm", "True member1 member2");

  ASSERT_TRUE(ResourceClient(*host_, kFederatedConfigMaps, ns()).remove("cm"));
  EXPECT_TRUE(
      eventually([&] { return memberAbsent("member1", "cm") && memberAbsent("member2", "cm"); }));
  EXPECT_TRUE(eventually([&] {
    auto found = ResourceClient(*host_, kFederatedConfigMaps, ns()).get("cm");
    return !found && isNotFound(found.error());
  })) << federated(kFederatedConfigMaps, "cm").dump();
}

TEST_F(SyncControllerTest, OrphaningKeepsMemberObjectsAndRemovesTheirManagedLabel) {
  createConfigMap("cm", {{"k", "v"}});
  startController();
  expectSummary("cm", "True member1 member2");

  mergePatchFederated(kFederatedConfigMaps, "cm",
                      {{"metadata", {{"annotations", {{"kubefed.io/orphan", "true"}}}}}});
  ASSERT_TRUE(ResourceClient(*host_, kFederatedConfigMaps, ns()).remove("cm"));
  EXPECT_TRUE(eventually([&] {
    auto found = ResourceClient(*host_, kFederatedConfigMaps, ns()).get("cm");
    return !found && isNotFound(found.error());
  }));
  for (const std::string& cluster : kMembers) {
    EXPECT_TRUE(eventually([&] {
      auto kept = member(cluster, "cm");
      return kept && !kept.value()["metadata"]
                          .value("labels", Json::object())
                          .contains("kubefed.io/managed");
    })) << cluster;
    EXPECT_EQ(memberValue(cluster, "cm"), "v");
  }
}

TEST_F(SyncControllerTest, AdoptsAnUnlabeledObjectThatAlreadyExists) {
  createMemberConfigMap("member1", "cm", {{"k", "old"}});
  createConfigMap("cm", {{"k", "new"}}, {"member1"});
  startController();

  expectSummary("cm", "True member1");
  auto adopted = member("member1", "cm");
  ASSERT_TRUE(adopted);
  EXPECT_EQ(adopted.value()["data"]["k"], "new");
  EXPECT_TRUE(hasLabel(adopted.value(), "kubefed.io/managed", "true"));
  EXPECT_TRUE(eventually([&] {
    return eventRecorded("cm", "CreateInClusterFailed",
                         "An update will be attempted instead of a creation due to an existing "
                         "resource");
  }));
}

TEST_F(SyncControllerTest, WithAdoptionDisabledAnExistingObjectIsLeftAndReported) {
  createMemberConfigMap("member1", "cm", {{"k", "old"}});
  createConfigMap("cm", {{"k", "new"}});
  ControlPlaneConfig config = controlPlane();
  config.skip_adopting_resources = true;
  startController("configmaps", config);

  expectSummary("cm", "False:CheckClusters member1=AlreadyExists member2");
  auto untouched = member("member1", "cm");
  ASSERT_TRUE(untouched);
  EXPECT_EQ(untouched.value()["data"]["k"], "old");
  EXPECT_FALSE(
      untouched.value()["metadata"].value("labels", Json::object()).contains("kubefed.io/managed"));
  EXPECT_EQ(memberValue("member2", "cm"), "new");
}

TEST_F(SyncControllerTest, NeverTakesOverAnObjectLabeledManagedFalse) {
  createMemberConfigMap("member1", "cm", {{"k", "mine"}}, {{"kubefed.io/managed", "false"}});
  createConfigMap("cm", {{"k", "theirs"}});
  startController();

  expectSummary("cm", "False:CheckClusters member1=ManagedLabelFalse member2");
  EXPECT_EQ(memberValue("member1", "cm"), "mine");
  EXPECT_EQ(memberValue("member2", "cm"), "theirs");
}

// A patch that cannot apply fails that cluster's operation only; the other cluster and the
// other objects are propagated.
TEST_F(SyncControllerTest, ABadOverrideFailsOnlyItsCluster) {
  createConfigMap("missing-parent", {{"k", "v"}}, kMembers, Json::parse(R"([
      {"clusterName": "member1",
       "clusterOverrides": [{"op": "add", "path": "/spec/replicas", "value": 2}]}])"));
  createConfigMap("remove-absent", {{"k", "v"}}, kMembers, Json::parse(R"([
      {"clusterName": "member2",
       "clusterOverrides": [{"op": "remove", "path": "/data/absent"}]}])"));
  createConfigMap("fine", {{"k", "v"}});
  startController();

  expectSummary("missing-parent", "False:CheckClusters member1=ApplyOverridesFailed member2");
  expectSummary("remove-absent", "False:CheckClusters member1 member2=ApplyOverridesFailed");
  expectSummary("fine", "True member1 member2");
  EXPECT_EQ(memberValue("member2", "missing-parent"), "v");
  EXPECT_EQ(memberValue("member1", "remove-absent"), "v");
  EXPECT_TRUE(memberAbsent("member1", "missing-parent"));
  EXPECT_TRUE(eventually([&] { return eventRecorded("remove-absent", "CreateInClusterFailed"); }));
}

TEST_F(SyncControllerTest, AnObjectAMemberRejectsIsReportedAsCreationFailed) {
  // ConfigMap data keys must be valid file names: member2's object is invalid.
  createConfigMap("rejected", {{"k", "v"}}, kMembers, Json::parse(R"([
      {"clusterName": "member2",
       "clusterOverrides": [{"op": "add", "path": "/data/not a valid key!", "value": "x"}]}])"));
  createConfigMap("fine", {{"k", "v"}});
  startController();

  expectSummary("rejected", "False:CheckClusters member1 member2=CreationFailed");
  expectSummary("fine", "True member1 member2");
  EXPECT_EQ(memberValue("member1", "rejected"), "v");
  EXPECT_TRUE(memberAbsent("member2", "rejected"));
}

// As in KubeFed, a placement name no KubeFedCluster has plays no part in propagation or in the
// Propagation condition (clusters are often named before they are joined); ours adds one Warning
// event per generation of the federated object.
TEST_F(SyncControllerTest, APlacementNamingAnUnknownClusterIgnoresItWithOneWarningPerGeneration) {
  createConfigMap("typo", {{"k", "v"}}, {"member1", "membr2"});
  startController();

  expectSummary("typo", "True member1");
  EXPECT_EQ(memberValue("member1", "typo"), "v");
  EXPECT_TRUE(memberAbsent("member2", "typo"));
  EXPECT_TRUE(eventually([&] { return eventRecorded("typo", "ClusterNotFound", "\"membr2\""); }));

  // More reconciles of the same generation: a member object edited by hand is put back.
  auto edited = member("member1", "typo");
  ASSERT_TRUE(edited);
  edited.value()["data"]["k"] = "by hand";
  ASSERT_TRUE(ResourceClient(*members_["member1"], kConfigMaps, ns()).update(edited.value()));
  EXPECT_TRUE(eventually([&] { return memberValue("member1", "typo") == "v"; }));
  stopControllers();  // drains the event recorders
  EXPECT_EQ(eventCount("typo", "ClusterNotFound"), 1);
}

// kubefed.io/deleteoption is for deleting the federated object; a cluster dropped from placement
// loses its object with default options, as in KubeFed.
TEST_F(SyncControllerTest, AClusterDroppedFromPlacementLosesItsObjectWithDefaultDeleteOptions) {
  Json object = federatedConfigMap("cm", {{"k", "v"}}, onClusters(kMembers));
  // A precondition no member object meets: a delete given these options fails.
  object["metadata"]["annotations"] = {
      {"kubefed.io/deleteoption",
       R"({"preconditions":{"uid":"00000000-0000-0000-0000-000000000000"}})"}};
  createFederated(kFederatedConfigMaps, object);
  startController();
  expectSummary("cm", "True member1 member2");

  mergePatchFederated(kFederatedConfigMaps, "cm",
                      {{"spec", {{"placement", {{"clusters", {{{"name", "member1"}}}}}}}}});
  EXPECT_TRUE(eventually([&] { return memberAbsent("member2", "cm"); }));
  expectSummary("cm", "True member1");
  // The federated object's own deletion would honour the precondition and never finish.
  mergePatchFederated(kFederatedConfigMaps, "cm",
                      {{"metadata", {{"annotations", {{"kubefed.io/deleteoption", nullptr}}}}}});
}

TEST_F(SyncControllerTest, PlacementIsLimitedToTheFederatedNamespaces) {
  mergePatchFederated(
      kFederatedNamespaces, ns(),
      {{"spec",
        {{"placement", {{"clusterSelector", nullptr}, {"clusters", {{{"name", "member1"}}}}}}}}});
  createConfigMap("cm", {{"k", "v"}});
  startController();
  expectSummary("cm", "True member1");
  EXPECT_TRUE(memberAbsent("member2", "cm"));

  // Widening the namespace's placement reaches the objects in it.
  mergePatchFederated(
      kFederatedNamespaces, ns(),
      {{"spec", {{"placement", {{"clusters", nullptr}, {"clusterSelector", Json::object()}}}}}});
  EXPECT_TRUE(eventually([&] { return memberValue("member2", "cm") == "v"; }));
  expectSummary("cm", "True member1 member2");
}

TEST_F(SyncControllerTest, AnUnreadyClusterIsReportedAndHoldsDeletionBack) {
  registry_.upsert({"member3", false, {}, nullptr}, nullptr);
  createFederated(kFederatedConfigMaps,
                  federatedConfigMap("cm", {{"k", "v"}}, {{"clusterSelector", Json::object()}}));
  startController();
  expectSummary("cm", "False:CheckClusters member1 member2 member3=ClusterNotReady");
  EXPECT_TRUE(
      eventually([&] { return eventRecorded("cm", "ClusterNotReady", "Cluster not ready"); }));

  ASSERT_TRUE(ResourceClient(*host_, kFederatedConfigMaps, ns()).remove("cm"));
  EXPECT_TRUE(
      eventually([&] { return memberAbsent("member1", "cm") && memberAbsent("member2", "cm"); }));
  // KubeFed's limitation: the finalizer stays while any cluster is not ready, however often the
  // object is reconciled (a label change queues it at once).
  const long reconciles = federatedReconcileCount();
  mergePatchFederated(kFederatedConfigMaps, "cm", {{"metadata", {{"labels", {{"poke", "1"}}}}}});
  ASSERT_TRUE(eventually([&] { return federatedReconcileCount() > reconciles; }));
  EXPECT_EQ(federated(kFederatedConfigMaps, "cm")["metadata"]["finalizers"],
            Json({"kubefed.io/sync-controller"}));
  registry_.remove("member3");
  EXPECT_TRUE(eventually([&] {
    auto found = ResourceClient(*host_, kFederatedConfigMaps, ns()).get("cm");
    return !found && isNotFound(found.error());
  }));
}

// A cluster that becomes ready gets an informer and, after the cluster delay, every object is
// reconciled again: what it missed is created. Member events wait a minute here, so only the
// cluster's becoming ready can bring the object there in time.
TEST_F(SyncControllerTest, AClusterThatBecomesReadyReceivesItsObjects) {
  registry_.upsert({"member2", false, {{"region", "west"}}, nullptr}, members_["member2"]);
  createConfigMap("cm", {{"k", "v"}});
  const long reconciles = federatedReconcileCount();
  startController("configmaps", controlPlane(), std::nullopt, std::chrono::seconds(60));
  expectSummary("cm", "False:CheckClusters member1 member2=ClusterNotReady");
  // The pass that created member1's object (the events of its own host writes queue no other).
  ASSERT_TRUE(eventually([&] { return federatedReconcileCount() >= reconciles + 1; }));
  EXPECT_TRUE(memberAbsent("member2", "cm"));

  registry_.upsert({"member2", true, {{"region", "west"}}, nullptr}, members_["member2"]);
  EXPECT_TRUE(eventually([&] { return memberValue("member2", "cm") == "v"; }));
  expectSummary("cm", "True member1 member2");
}

// A member object labeled managed whose federated object does not exist is released: KubeFed
// removes the label and leaves the object.
TEST_F(SyncControllerTest, ALabeledObjectWithoutFederatedObjectLosesTheLabel) {
  startController();
  createMemberConfigMap("member1", "stray", {{"k", "v"}}, {{"kubefed.io/managed", "true"}});
  EXPECT_TRUE(eventually([&] {
    auto stray = member("member1", "stray");
    return stray && !stray.value()["metadata"]
                         .value("labels", Json::object())
                         .contains("kubefed.io/managed");
  }));
  EXPECT_EQ(memberValue("member1", "stray"), "v");
}

// Deployments carry a generation: their versions are "gen:N", and a metadata-only edit in a
// member (which does not bump the generation) is still put back.
TEST_F(SyncControllerTest, DeploymentsAreTrackedByGenerationAndLabelEditsPutBack) {
  createFederated(kFederatedDeployments, deployment("web"));
  startController("deployments.apps");
  expectSummary("web", "True member1 member2", kFederatedDeployments);
  EXPECT_TRUE(eventually([&] {
    return versionsMatchLiveObjects(kFederatedDeployments, "web", kDeployments, "deployment-web",
                                    kMembers);
  })) << propagatedVersion("deployment-web").dump();
  EXPECT_EQ(propagatedVersion("deployment-web")["status"]["clusterVersions"][0]["version"],
            "gen:1");

  auto patched = ResourceClient(*members_["member1"], kDeployments, ns())
                     .patch("web", PatchType::kMerge, R"({"metadata":{"labels":{"extra":"x"}}})");
  ASSERT_TRUE(patched) << patched.error().describe();
  EXPECT_TRUE(eventually([&] {
    auto live = member("member1", "web", kDeployments);
    return live && !live.value()["metadata"].value("labels", Json::object()).contains("extra") &&
           hasLabel(live.value(), "kubefed.io/managed", "true");
  }));
}

// With RawResourceStatusCollection on and statusCollection Enabled each cluster entry carries
// the member object's status; ConfigMaps have none, which leaves them at CheckClusters for good
// (KubeFed's quirk).
TEST_F(SyncControllerTest, RawStatusCollectionCopiesMemberStatuses) {
  ControlPlaneConfig config = controlPlane();
  config.raw_resource_status_collection = true;
  for (const char* type : {"configmaps", "deployments.apps"}) {
    core::FederatedTypeConfig ftc = typeConfigs().at(type);
    ftc.spec.status_collection = std::string(core::kEnabled);
    startController(type, config, ftc);
  }
  createConfigMap("cm", {{"k", "v"}});
  createFederated(kFederatedDeployments, deployment("web"));

  expectSummary("cm", "False:CheckClusters member1 member2");
  EXPECT_EQ(memberValue("member1", "cm"), "v");
  expectSummary("web", "True member1 member2", kFederatedDeployments);
  // Each cluster entry carries the member Deployment's status as it is now. A
  // kube-controller-manager changes that status after creation (replicas, conditions); every
  // change is a member event that brings the copy up to date.
  auto copied_live_status = [&] {
    const Json web = federated(kFederatedDeployments, "web");
    const Json clusters = web.value("status", Json::object()).value("clusters", Json::array());
    if (clusters.size() != 2) return false;
    for (const Json& cluster : clusters) {
      auto live = member(cluster.value("name", ""), "web", kDeployments);
      if (!live ||
          cluster.value("remoteStatus", Json()) != live.value().value("status", Json::object())) {
        return false;
      }
    }
    return true;
  };
  EXPECT_TRUE(eventually(copied_live_status, std::chrono::seconds(60)))
      << federated(kFederatedDeployments, "web").dump();
}

// A member relabelled so that a clusterSelector now matches it gets the object without the
// federated object changing (KubeFed re-adds a cluster whose labels changed).
TEST_F(SyncControllerTest, ARelabelledClusterThatNowMatchesTheSelectorGetsTheObject) {
  createFederated(
      kFederatedConfigMaps,
      federatedConfigMap("east", {{"k", "v"}},
                         {{"clusterSelector", {{"matchLabels", {{"region", "east"}}}}}}));
  startController();
  expectSummary("east", "True member1");
  EXPECT_TRUE(memberAbsent("member2", "east"));

  registry_.upsert({"member2", true, {{"region", "east"}}, nullptr}, members_["member2"]);
  EXPECT_TRUE(eventually([&] { return memberValue("member2", "east") == "v"; }));
  expectSummary("east", "True member1 member2");
}

// An update a member rejects (a Deployment's selector is immutable) leaves UpdateFailed with the
// member object's last known status as its remote status, as KubeFed keeps it.
TEST_F(SyncControllerTest, RawStatusCollectionKeepsTheMemberStatusWhenAnUpdateFails) {
  ControlPlaneConfig config = controlPlane();
  config.raw_resource_status_collection = true;
  core::FederatedTypeConfig ftc = typeConfigs().at("deployments.apps");
  ftc.spec.status_collection = std::string(core::kEnabled);
  startController("deployments.apps", config, ftc);
  createFederated(kFederatedDeployments, deployment("web"));
  expectSummary("web", "True member1 member2", kFederatedDeployments);
  ASSERT_TRUE(eventually([&] {
    auto live = member("member1", "web", kDeployments);
    return live && live.value().value("status", Json::object()).contains("observedGeneration");
  }));

  mergePatchFederated(kFederatedDeployments, "web", Json::parse(R"({"spec": {"template": {"spec": {
      "selector": {"matchLabels": {"app": "other"}},
      "template": {"metadata": {"labels": {"app": "other"}}}}}}})"));
  expectSummary("web", "False:CheckClusters member1=UpdateFailed member2=UpdateFailed",
                kFederatedDeployments);
  // The member's controller may still change that status: each change is a member event that
  // brings the copy up to date, so the copy matches the live status eventually.
  EXPECT_TRUE(eventually([&] {
    const Json clusters =
        federated(kFederatedDeployments, "web")["status"].value("clusters", Json::array());
    return clusters.size() == 2 &&
           std::all_of(clusters.begin(), clusters.end(), [&](const Json& c) {
             auto live = member(c.value("name", ""), "web", kDeployments);
             return live && c.value("status", "") == "UpdateFailed" &&
                    c.value("remoteStatus", Json()) == live.value()["status"];
           });
  })) << federated(kFederatedDeployments, "web").dump();
}

// The `namespaces` type, with the host registered as a member too: existing namespaces are
// adopted; when unplaced, a member's namespace is deleted while the host's own is only unlabeled
// (2.5.10). A cluster-scoped control plane: it sees every FederatedNamespace of the host.
TEST_F(SyncControllerTest, NamespacesAreAdoptedAndTheHostsOwnIsNeverDeleted) {
  registry_.upsert({"hostcluster", true, {}, nullptr}, shared_host_);
  ControlPlaneConfig config = controlPlane();
  config.namespaced_scope = false;
  config.target_namespace = "";
  config.kubefed_namespace = "kube-federation-system";
  startController("namespaces", config);
  expectSummary(ns(), "True hostcluster member1 member2", kFederatedNamespaces);
  auto host_namespace = ResourceClient(*host_, kNamespaces).get(ns());
  ASSERT_TRUE(host_namespace);
  EXPECT_TRUE(hasLabel(host_namespace.value(), "kubefed.io/managed", "true"));
  auto member_namespace = ResourceClient(*members_["member1"], kNamespaces).get(ns());
  ASSERT_TRUE(member_namespace);
  EXPECT_TRUE(hasLabel(member_namespace.value(), "kubefed.io/managed", "true"));

  mergePatchFederated(
      kFederatedNamespaces, ns(),
      {{"spec",
        {{"placement", {{"clusterSelector", nullptr}, {"clusters", {{{"name", "member1"}}}}}}}}});
  // Without a kube-controller-manager a deleted namespace stays Terminating: WaitingForRemoval.
  expectSummary(ns(), "False:CheckClusters member1 member2=WaitingForRemoval",
                kFederatedNamespaces);
  host_namespace = ResourceClient(*host_, kNamespaces).get(ns());
  ASSERT_TRUE(host_namespace);
  EXPECT_FALSE(host_namespace.value()["metadata"].contains("deletionTimestamp"));
  EXPECT_FALSE(host_namespace.value()["metadata"]
                   .value("labels", Json::object())
                   .contains("kubefed.io/managed"));
  stopControllers();
  // A cluster-wide namespaces controller finalized every FederatedNamespace: release them.
  releaseFederatedObjects(*host_);
}

// KubeFed's usual layout: the host joined as a member of itself. Deleting a namespace that holds
// a FederatedNamespace must finish: the sync finalizer goes although the host's own namespace,
// being deleted, still carries the managed label.
TEST_F(SyncControllerTest, WithTheHostJoinedDeletingANamespaceWithAFederatedNamespaceFinishes) {
  registry_.upsert({"hostcluster", true, {}, nullptr}, shared_host_);
  ControlPlaneConfig config = controlPlane();
  config.namespaced_scope = false;
  config.target_namespace = "";
  config.kubefed_namespace = "kube-federation-system";
  const std::string name = ns() + "-gone";
  ASSERT_TRUE(
      ResourceClient(*host_, kNamespaces)
          .create({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}}));
  ResourceClient federated_namespaces(*host_, kFederatedNamespaces, name);
  ASSERT_TRUE(federated_namespaces.create(
      {{"apiVersion", "types.kubefed.io/v1beta1"},
       {"kind", "FederatedNamespace"},
       {"metadata", {{"name", name}, {"namespace", name}}},
       {"spec", Json::parse(R"({"placement": {"clusters": [{"name": "hostcluster"},
                                                          {"name": "member1"}]}})")}}));
  startController("namespaces", config);
  ASSERT_TRUE(eventually([&] {
    auto placed = ResourceClient(*members_["member1"], kNamespaces).get(name);
    auto host = ResourceClient(*host_, kNamespaces).get(name);
    return placed && host && hasLabel(host.value(), "kubefed.io/managed", "true");
  }));

  ASSERT_TRUE(ResourceClient(*host_, kNamespaces).remove(name));
  // The host's namespace controller deletes the FederatedNamespace, which waits for the sync
  // controller's finalizer; the namespace goes once it is gone.
  EXPECT_TRUE(eventually(
      [&] {
        auto found = ResourceClient(*host_, kNamespaces).get(name);
        return !found && isNotFound(found.error());
      },
      std::chrono::seconds(60)))
      << [&] {
           auto left = federated_namespaces.get(name);
           return left ? left.value().dump() : left.error().describe();
         }();
  EXPECT_TRUE(eventually([&] {
    auto found = ResourceClient(*members_["member1"], kNamespaces).get(name);
    return !found && isNotFound(found.error());
  }));
  stopControllers();
  releaseFederatedObjects(*host_);
}

// Nothing changed while the controller was down: after the restart it reads the recorded
// versions back and sends no write at all, neither to the members nor to the host (no-op
// writes would not even change resourceVersions, so the requests themselves are counted).
TEST_F(SyncControllerTest, ARestartWritesNothingWhenNothingChanged) {
  createConfigMap("a", {{"k", "1"}});
  createConfigMap("b", {{"k", "2"}}, {"member2"});
  startController();
  expectSummary("a", "True member1 member2");
  expectSummary("b", "True member2");
  ASSERT_TRUE(eventually([&] {
    return versionsMatchLiveObjects(kFederatedConfigMaps, "a", kConfigMaps, "configmap-a",
                                    kMembers) &&
           versionsMatchLiveObjects(kFederatedConfigMaps, "b", kConfigMaps, "configmap-b",
                                    {"member2"});
  }));
  stopControllers();

  host_writes_->clear();
  for (const std::string& cluster : kMembers) member_writes_[cluster]->clear();
  const long reconciles = federatedReconcileCount();
  startController();
  // Both objects are reconciled again (each initial add queues one reconcile)...
  ASSERT_TRUE(eventually([&] { return federatedReconcileCount() >= reconciles + 2; }));
  stopControllers();
  // ... and wrote nothing.
  EXPECT_EQ(withoutEvents(host_writes_->writes()), std::vector<std::string>{});
  for (const std::string& cluster : kMembers) {
    EXPECT_EQ(member_writes_[cluster]->writes(), std::vector<std::string>{}) << cluster;
  }

  // A change after a restart is still propagated, and only where it has to be.
  startController();
  mergePatchFederated(kFederatedConfigMaps, "b",
                      {{"spec", {{"template", {{"data", {{"k", "3"}}}}}}}});
  EXPECT_TRUE(eventually([&] { return memberValue("member2", "b") == "3"; }));
  EXPECT_EQ(member_writes_["member1"]->writes(), std::vector<std::string>{});
}

// The API server drops the status of a PropagatedVersion sent with its create (status is a
// subresource), so recording versions for a new federated object takes two writes, a create
// and a status update, and cannot be done in one.
TEST_F(SyncControllerTest, APropagatedVersionCreatedWithAStatusIsStoredWithoutIt) {
  ResourceClient versions(*host_, kPropagatedVersions, ns());
  auto created = versions.create(Json::parse(R"({
      "apiVersion": "core.kubefed.io/v1alpha1", "kind": "PropagatedVersion",
      "metadata": {"name": "configmap-with-status"},
      "status": {"templateVersion": "t", "overridesVersion": "o",
                 "clusterVersions": [{"clusterName": "member1", "version": "rv:1"}]}})"));
  ASSERT_TRUE(created) << created.error().describe();
  EXPECT_FALSE(created.value().contains("status")) << created.value().dump();
  EXPECT_FALSE(propagatedVersion("configmap-with-status").contains("status"));
}

// Why the finalizer and the first PropagatedVersion status take writes of their own: a status
// write keeps the stored metadata (it cannot carry the finalizer), and a status write never
// creates the object.
TEST_F(SyncControllerTest, AStatusWriteNeitherCarriesMetadataNorCreates) {
  Json object = createConfigMap("status-only", {{"k", "v"}});
  ASSERT_TRUE(object.is_object());
  object["metadata"]["finalizers"] = Json::array({"kubefed.io/sync-controller"});
  object["status"] = {{"observedGeneration", 1}};
  ResourceClient federated_objects(*host_, kFederatedConfigMaps, ns());
  auto written = federated_objects.updateStatus(object);
  ASSERT_TRUE(written) << written.error().describe();
  EXPECT_EQ(written.value()["status"]["observedGeneration"], 1);
  EXPECT_FALSE(written.value()["metadata"].contains("finalizers")) << written.value().dump();

  ResourceClient versions(*host_, kPropagatedVersions, ns());
  auto created = versions.updateStatus(Json::parse(R"({
      "apiVersion": "core.kubefed.io/v1alpha1", "kind": "PropagatedVersion",
      "metadata": {"name": "configmap-never-created", "resourceVersion": "1"},
      "status": {"templateVersion": "t", "overridesVersion": "o"}})"));
  ASSERT_FALSE(created);
  EXPECT_TRUE(isNotFound(created.error())) << created.error().describe();
}

// What propagation costs the host, counted by the host's own request metrics: KubeFed's default
// host client limits (QPS 5, burst 10) make these writes the bottleneck of propagation. A new
// federated object placed in two members takes four: the finalizer, the PropagatedVersion's
// create and status, the federated status. A template change takes two (the PropagatedVersion's
// status, the federated status's observedGeneration). The reconciles that follow, with nothing
// left to change (the status write's own event, the members' events), take none.
TEST_F(SyncControllerTest, HostWritesPerFederatedObjectAreFourThenTwoPerChangeThenNone) {
  const long objects_before = hostWritesCounted(*host_, "federatedconfigmaps");
  const long versions_before = hostWritesCounted(*host_, "propagatedversions");
  ASSERT_GE(objects_before, 0);
  ASSERT_GE(versions_before, 0);
  createConfigMap("counted", {{"k", "1"}});  // the test's own write
  startController();
  expectSummary("counted", "True member1 member2");
  ASSERT_TRUE(eventually([&] {
    return versionsMatchLiveObjects(kFederatedConfigMaps, "counted", kConfigMaps,
                                    "configmap-counted", kMembers);
  }));

  // A template change: its reconcile starts after every event of the first propagation.
  const long reconciles_before_change = federatedReconcileCount();
  mergePatchFederated(kFederatedConfigMaps, "counted",
                      {{"spec", {{"template", {{"data", {{"k", "2"}}}}}}}});  // the test's
  ASSERT_TRUE(eventually([&] {
    return memberValue("member1", "counted") == "2" && memberValue("member2", "counted") == "2";
  }));
  expectSummary("counted", "True member1 member2");  // observedGeneration 2 written last
  ASSERT_TRUE(eventually([&] {
    return versionsMatchLiveObjects(kFederatedConfigMaps, "counted", kConfigMaps,
                                    "configmap-counted", kMembers);
  }));
  const long objects_propagated = hostWritesCounted(*host_, "federatedconfigmaps");
  const long versions_propagated = hostWritesCounted(*host_, "propagatedversions");
  EXPECT_EQ(objects_propagated - objects_before, 2 /* the test's */ + 1 + 1 + 1)
      << "the finalizer and two status writes expected; the controller's writes were:\n"
      << ::testing::PrintToString(withoutEvents(host_writes_->writes()));
  EXPECT_EQ(versions_propagated - versions_before, 3)
      << "a create and two status writes expected; the controller's writes were:\n"
      << ::testing::PrintToString(withoutEvents(host_writes_->writes()));

  // The change's reconcile and at least one after its status write (the status write's own
  // event queues one; the members' events may too).
  ASSERT_TRUE(
      eventually([&] { return federatedReconcileCount() >= reconciles_before_change + 2; }));
  stopControllers();  // waits for a reconcile in progress
  EXPECT_EQ(hostWritesCounted(*host_, "federatedconfigmaps"), objects_propagated);
  EXPECT_EQ(hostWritesCounted(*host_, "propagatedversions"), versions_propagated);
}

// This process's threads named `name` (a thread's name is cut to 15 characters).
int threadsNamed(const std::string& name) {
  int count = 0;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::string comm = readFile((task.path() / "comm").string());
    if (!comm.empty() && comm.back() == '\n') comm.pop_back();
    count += comm == name ? 1 : 0;
  }
  return count;
}

// The KubeFedConfig's syncController.maxConcurrentReconciles is how many federated objects of a
// type are reconciled at once: the sync controller runs that many workers, each a thread named
// after the type's work queue ("federatedconfigmap", cut to 15 characters).
TEST_F(SyncControllerTest, RunsTheWorkersTheKubeFedConfigAsksFor) {
  const int before = threadsNamed("federatedconfig");
  ControlPlaneConfig config = controlPlane();
  config.sync_max_concurrent_reconciles = 3;
  startController("configmaps", config);
  EXPECT_TRUE(eventually([&] { return threadsNamed("federatedconfig") - before == 3; }))
      << threadsNamed("federatedconfig") - before << " workers";
  stopControllers();
  EXPECT_EQ(threadsNamed("federatedconfig"), before);  // stopped and joined
}

}  // namespace
}  // namespace kf::integration
