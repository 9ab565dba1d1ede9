// The sync orchestration on fake API servers (a host and two members), with the real informers,
// registry, executors and version manager: propagation_pass (propagate), federated_deletion
// (ensureDeletion, releaseOrphans) and the member operations they dispatch.

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <thread>

#include "sync/controller/federated_deletion.h"
#include "sync/controller/propagation_pass.h"
#include "sync/io/member_operations.h"
#include "sync/plan/managed_label.h"
#include "sync/plan/object_version.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"
#include "tests/support/fake_event_recorder.h"

namespace kf::sync {
namespace {

using test::FakeApiServer;
using test::FakeClock;
using test::FakeEventRecorder;

const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};
const GroupVersionResource kFederatedConfigMapResource{"types.kubefed.io", "v1beta1",
                                                       "federatedconfigmaps", true};
constexpr char kKubeFedNamespace[] = "kube-federation-system";

// spdlog builds its registry on the first log call, inside the uninstrumented library: done here,
// before the executors' pool threads log at once (ThreadSanitizer would see them race on it).
[[maybe_unused]] const bool kSpdlogRegistryReady = static_cast<bool>(spdlog::default_logger());

// Waits (in real time, generously) for what the informers' threads make true.
bool soon(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

core::ApiResource apiResource(std::string group, std::string kind, std::string plural) {
  core::ApiResource type;
  type.group = std::move(group);
  type.version = type.group.empty() ? "v1" : "v1beta1";
  type.kind = std::move(kind);
  type.plural_name = std::move(plural);
  type.scope = std::string(core::kScopeNamespaced);
  return type;
}

SyncTypeInfo configMapType() {
  SyncTypeInfo info;
  info.target_type = apiResource("", "ConfigMap", "configmaps");
  info.federated_type =
      apiResource("types.kubefed.io", "FederatedConfigMap", "federatedconfigmaps");
  info.target_resource = kConfigMaps;
  info.federated_resource = kFederatedConfigMapResource;
  info.kubefed_namespace = kKubeFedNamespace;
  return info;
}

Json placedConfigMap(const std::vector<std::string>& clusters) {
  Json placed = Json::array();
  for (const std::string& name : clusters) placed.push_back({{"name", name}});
  return {
      {"apiVersion", "types.kubefed.io/v1beta1"},
      {"kind", "FederatedConfigMap"},
      {"metadata",
       {{"name", "a"},
        {"namespace", "ns"},
        {"finalizers", {std::string(kSyncControllerFinalizer)}}}},
      {"spec", {{"template", {{"data", {{"k", "v"}}}}}, {"placement", {{"clusters", placed}}}}}};
}

// Places every namespaced object in every cluster.
const Json kFederatedNamespace = {{"metadata", {{"name", "ns"}, {"namespace", "ns"}}},
                                  {"spec", {{"placement", {{"clusterSelector", Json::object()}}}}}};

class SyncPassTest : public ::testing::Test {
 protected:
  SyncPassTest() {
    host_.enableStatusSubresource("federatedconfigmaps");
    host_.enableStatusSubresource("propagatedversions");
    for (const char* name : {"m1", "m2"}) setCluster(name, /*ready=*/true);
    member_informers_.start(ignored_keys_, enqueueObject());
    EXPECT_TRUE(soon([&] { return host_informers_->synced() && member_informers_.synced(); }));
    EXPECT_TRUE(versions_.load());
  }
  ~SyncPassTest() override {
    executors_.stop();
    member_informers_.stop();
    host_informers_->stop();
    member_manager_.stopAll();
    host_manager_.stopAll();
  }

  FakeApiServer& member(const std::string& name) { return name == "m1" ? m1_ : m2_; }
  void setCluster(const std::string& name, bool ready) {
    registry_.upsert(ClusterSnapshot{.name = name, .ready = ready, .labels = {}, .object = nullptr},
                     member(name).client());
  }
  // Stores the federated object on the host, as a user would.
  Json put(const Json& federated) { return host_.put(kFederatedConfigMapResource, federated); }

  ReconcileResult propagateStored() {
    const Json stored = host_.get(kFederatedConfigMapResource, "ns", "a").value();
    return propagate(context_, stored, names_, &kFederatedNamespace);
  }
  // Waits until the member caches hold what the members hold (present or not).
  bool cachesCaughtUp() {
    return soon([&] {
      for (const char* name : {"m1", "m2"}) {
        const bool stored = member(name).get(kConfigMaps, "ns", "a").has_value();
        auto cached = member_informers_.cached(name, "ns/a");
        if (!cached || (cached.value() != nullptr) != stored) return false;
      }
      return true;
    });
  }
  std::string clusterStatus(const std::string& cluster) {
    const Json stored = host_.get(kFederatedConfigMapResource, "ns", "a").value();
    for (const Json& entry : stored["status"].value("clusters", Json::array())) {
      if (entry.value("name", "") == cluster) return entry.value("status", "<ok>");
    }
    return "<absent>";
  }
  std::size_t memberWrites(const std::string& name) { return member(name).writeCount(); }
  // The create operation a pass gives `cluster` when its cache lacks the object, run with
  // `recorded` as the versions recorded for the object.
  DispatchOutcome createIn(const std::string& cluster, ClusterVersions recorded) {
    auto stored =
        std::make_shared<const Json>(host_.get(kFederatedConfigMapResource, "ns", "a").value());
    auto members = memberObjectContext(context_, stored, names_.target, std::move(recorded));
    Dispatcher dispatcher(executors_, clock_, std::chrono::seconds(30));
    dispatcher.dispatch(cluster, OperationKind::kCreate,
                        [members](OperationReport& report) { createInCluster(members, report); });
    return dispatcher.wait();
  }
  std::size_t eventsOfReason(const std::string& reason) {
    const auto reasons = events_->reasons();
    return static_cast<std::size_t>(std::count(reasons.begin(), reasons.end(), reason));
  }
  std::size_t statusWrites() {
    const auto writes = host_.writes();
    return std::count(writes.begin(), writes.end(), "MODIFIED federatedconfigmaps/ns/a");
  }

  FakeClock clock_;
  FakeApiServer host_{clock_};
  FakeApiServer m1_{clock_};
  FakeApiServer m2_{clock_};
  std::shared_ptr<RestClient> host_client_ = host_.client();
  ClusterRegistry registry_{clock_};
  InformerManager host_manager_{[this](const InformerKey& key) {
                                  return makeListerWatcher(host_client_, key.resource,
                                                           key.namespace_name, key.label_selector,
                                                           key.field_selector);
                                },
                                clock_};
  InformerManager member_manager_{[this](const InformerKey& key) -> ListerWatcherPtr {
                                    auto client = registry_.client(key.cluster);
                                    if (!client) return nullptr;
                                    return makeListerWatcher(
                                        std::move(client).value(), key.resource, key.namespace_name,
                                        key.label_selector, key.field_selector);
                                  },
                                  clock_};
  std::unique_ptr<HostInformers> host_informers_ =
      HostInformers::start({.federated = kFederatedConfigMapResource}, host_manager_).value();
  // The pass reads the member caches; the keys their events name are not this test's.
  struct IgnoredKeys final : EnqueueTarget {
    void enqueueAfter(const std::string&, Duration) override {}
  } ignored_keys_;
  MemberInformers member_informers_{{.target = kConfigMaps, .target_namespace = ""},
                                    member_manager_,
                                    registry_,
                                    clock_,
                                    memberIoPool()};
  VersionManager versions_{*host_client_, {.namespaced = true, .target_kind = "ConfigMap"}};
  TaskPool member_io_{4, "member-io"};
  ClusterExecutors executors_{member_io_, 2};
  std::shared_ptr<FakeEventRecorder> events_ = std::make_shared<FakeEventRecorder>();
  std::atomic<bool> stopping_{false};
  SyncContext context_{.type = configMapType(),
                       .host = host_client_,
                       .clusters = registry_,
                       .host_informers = *host_informers_,
                       .member_informers = member_informers_,
                       .versions = versions_,
                       .executors = executors_,
                       .recorder = events_,
                       .clock = clock_,
                       .operation_timeout = std::chrono::seconds(30),
                       .stopping = stopping_};
  const ResolvedEventKey names_ = *resolveEventKey("ns/a", false, kKubeFedNamespace);
};

// Verifies a pass creates the object in every placed cluster (managed label, template data),
// records the versions, writes the federated status once, and records CreateInCluster per
// cluster.
TEST_F(SyncPassTest, PropagationCreatesInEveryPlacedClusterAndWritesStatusOnce) {
  put(placedConfigMap({"m1", "m2"}));
  auto result = propagateStored();
  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result.value(), ReconcileStatus::kOk);
  for (const char* name : {"m1", "m2"}) {
    auto created = member(name).get(kConfigMaps, "ns", "a");
    ASSERT_TRUE(created) << name;
    EXPECT_TRUE(hasManagedLabel(*created)) << name;
    EXPECT_EQ((*created)["data"]["k"], "v") << name;
    EXPECT_EQ(clusterStatus(name), "<ok>") << name;
  }
  EXPECT_EQ(statusWrites(), 1U);
  EXPECT_EQ(host_.list({"core.kubefed.io", "v1alpha1", "propagatedversions", true}, "ns").size(),
            1U);
  const auto reasons = events_->reasons();
  EXPECT_EQ(std::count(reasons.begin(), reasons.end(), "CreateInCluster"), 2);
}

// Verifies a second pass over unchanged objects writes nothing to the members (the recorded
// versions match) and leaves the status as it is.
TEST_F(SyncPassTest, AnUnchangedObjectWritesNothingToTheMembers) {
  put(placedConfigMap({"m1", "m2"}));
  ASSERT_TRUE(propagateStored());
  ASSERT_TRUE(cachesCaughtUp());
  const std::size_t m1_writes = memberWrites("m1");
  const std::size_t m2_writes = memberWrites("m2");
  const std::size_t status_writes = statusWrites();
  auto again = propagateStored();
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ(memberWrites("m1"), m1_writes);
  EXPECT_EQ(memberWrites("m2"), m2_writes);
  EXPECT_EQ(statusWrites(), status_writes);
}

// Verifies that a pass on the object as it was before our own status write (the host cache
// has not shown the write yet) writes nothing to the host once it is given the object we wrote,
// while on the old object alone it would send a refused status write.
TEST_F(SyncPassTest, APassBeforeTheCacheShowsOurStatusWriteWritesNothingToTheHost) {
  put(placedConfigMap({"m1", "m2"}));
  const Json before = host_.get(kFederatedConfigMapResource, "ns", "a").value();
  ASSERT_TRUE(propagate(context_, before, names_, &kFederatedNamespace));
  ASSERT_TRUE(cachesCaughtUp());
  const ObjectPtr newest =
      context_.written_objects.newest("ns/a", std::make_shared<const Json>(before));
  ASSERT_NE(newest, nullptr);
  EXPECT_EQ(*newest, host_.get(kFederatedConfigMapResource, "ns", "a").value());

  const std::size_t host_requests = host_.writeRequests();
  ASSERT_TRUE(propagate(context_, *newest, names_, &kFederatedNamespace));
  EXPECT_EQ(host_.writeRequests(), host_requests);
  ASSERT_TRUE(propagate(context_, before, names_, &kFederatedNamespace));
  EXPECT_EQ(host_.writeRequests(), host_requests + 1);  // PUT refused with Conflict
  EXPECT_EQ(statusWrites(), 1U);
}

// Verifies an unready placed cluster gets ClusterNotReady (and its event) and no request, while
// the ready one is propagated to.
TEST_F(SyncPassTest, AnUnreadyClusterIsReportedAndLeftAlone) {
  setCluster("m2", /*ready=*/false);
  ASSERT_TRUE(soon([&] { return member_informers_.synced(); }));
  put(placedConfigMap({"m1", "m2"}));
  ASSERT_TRUE(propagateStored());
  EXPECT_TRUE(m1_.get(kConfigMaps, "ns", "a"));
  EXPECT_FALSE(m2_.get(kConfigMaps, "ns", "a"));
  EXPECT_EQ(clusterStatus("m2"), "ClusterNotReady");
  const auto reasons = events_->reasons();
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "ClusterNotReady"), reasons.end());
}

// Verifies a cluster dropped from the placement has its object deleted (status
// WaitingForRemoval) while the other keeps its own.
TEST_F(SyncPassTest, AClusterDroppedFromThePlacementHasItsObjectDeleted) {
  put(placedConfigMap({"m1", "m2"}));
  ASSERT_TRUE(propagateStored());
  ASSERT_TRUE(cachesCaughtUp());
  put(placedConfigMap({"m1"}));
  auto result = propagateStored();
  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_TRUE(m1_.get(kConfigMaps, "ns", "a"));
  EXPECT_FALSE(m2_.get(kConfigMaps, "ns", "a"));
  EXPECT_EQ(clusterStatus("m2"), "WaitingForRemoval");
}

// Verifies a member that rejects the creation gets CreationFailed, its event, and the reconcile
// fails so that it is retried with backoff; the other member is propagated to.
TEST_F(SyncPassTest, ARejectedCreationIsReportedAndRetried) {
  m2_.failNext({.method = "POST", .path_contains = "/configmaps"}, 422, "Invalid");
  put(placedConfigMap({"m1", "m2"}));
  auto result = propagateStored();
  EXPECT_FALSE(result);
  EXPECT_TRUE(m1_.get(kConfigMaps, "ns", "a"));
  EXPECT_EQ(clusterStatus("m2"), "CreationFailed");
  const auto reasons = events_->reasons();
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "CreateInClusterFailed"), reasons.end());
}

// Verifies that a create for a cluster where the object has a recorded version (a pass that
// follows the one that created it before the member's watch shows the object) reads the object
// and finds it current instead of sending a create the member refuses (409 AlreadyExists) and
// warning about an adoption.
TEST_F(SyncPassTest, ACreateOfAnObjectWeRecordedReadsItInsteadOfBeingRefused) {
  put(placedConfigMap({"m1", "m2"}));
  ASSERT_TRUE(propagateStored());
  const std::string version = objectVersion(m1_.get(kConfigMaps, "ns", "a").value());
  const std::size_t write_requests = m1_.writeRequests();

  const DispatchOutcome outcome = createIn("m1", {{"m1", version}});
  EXPECT_EQ(m1_.writeRequests(), write_requests);
  EXPECT_EQ(outcome.clusters.at("m1").status, PropagationStatus::kOk);
  EXPECT_EQ(eventsOfReason("CreateInClusterFailed"), 0U);
}

// Verifies that a recorded version does not stop a create when the member object is gone (deleted
// by someone else), nor when the object there is not ours (KubeFed's adoption, with its warning).
TEST_F(SyncPassTest, ACreateOfAnObjectWeRecordedStillCreatesOrAdoptsWhatItFinds) {
  put(placedConfigMap({"m1", "m2"}));
  ASSERT_TRUE(propagateStored());
  const std::string version = objectVersion(m1_.get(kConfigMaps, "ns", "a").value());
  m1_.remove(kConfigMaps, "ns", "a");
  EXPECT_EQ(createIn("m1", {{"m1", version}}).clusters.at("m1").status, PropagationStatus::kOk);
  const std::optional<Json> created = m1_.get(kConfigMaps, "ns", "a");
  ASSERT_TRUE(created);
  EXPECT_TRUE(hasManagedLabel(*created));

  m1_.put(kConfigMaps, {{"apiVersion", "v1"},
                        {"kind", "ConfigMap"},
                        {"metadata", {{"name", "a"}, {"namespace", "ns"}}},
                        {"data", {{"k", "theirs"}}}});
  EXPECT_EQ(createIn("m1", {{"m1", version}}).clusters.at("m1").status, PropagationStatus::kOk);
  EXPECT_EQ(eventsOfReason("CreateInClusterFailed"), 1U);
  const std::optional<Json> adopted = m1_.get(kConfigMaps, "ns", "a");
  ASSERT_TRUE(adopted);
  EXPECT_TRUE(hasManagedLabel(*adopted));
  EXPECT_EQ((*adopted)["data"]["k"], "v");
}

// Verifies a member object changed by someone else is updated back to the template.
TEST_F(SyncPassTest, ADriftedMemberObjectIsUpdatedBack) {
  put(placedConfigMap({"m1", "m2"}));
  ASSERT_TRUE(propagateStored());
  Json drifted = m1_.get(kConfigMaps, "ns", "a").value();
  drifted["data"]["k"] = "changed";
  m1_.put(kConfigMaps, drifted);
  ASSERT_TRUE(soon([&] {
    auto cached = member_informers_.cached("m1", "ns/a");
    return cached && cached.value() && (*cached.value())["data"]["k"] == "changed";
  }));
  ASSERT_TRUE(cachesCaughtUp());
  const std::size_t m2_writes = memberWrites("m2");
  ASSERT_TRUE(propagateStored());
  EXPECT_EQ(m1_.get(kConfigMaps, "ns", "a").value()["data"]["k"], "v");
  EXPECT_EQ(memberWrites("m2"), m2_writes);
}

// Verifies a deletion deletes the member objects first (kNeedsRecheck while they exist), then,
// once the members hold none, removes the sync finalizer.
TEST_F(SyncPassTest, DeletionRemovesMemberObjectsThenTheFinalizer) {
  put(placedConfigMap({"m1", "m2"}));
  ASSERT_TRUE(propagateStored());
  ASSERT_TRUE(cachesCaughtUp());
  Json deleting = host_.get(kFederatedConfigMapResource, "ns", "a").value();
  deleting["metadata"]["deletionTimestamp"] = "2024-01-01T00:00:00Z";
  const Json stored = put(deleting);

  auto first = ensureDeletion(context_, stored, names_);
  ASSERT_TRUE(first) << first.error().describe();
  EXPECT_EQ(first.value(), ReconcileStatus::kNeedsRecheck);
  EXPECT_FALSE(m1_.get(kConfigMaps, "ns", "a"));
  EXPECT_FALSE(m2_.get(kConfigMaps, "ns", "a"));
  EXPECT_TRUE(
      host_.get(kFederatedConfigMapResource, "ns", "a").value()["metadata"].contains("finalizers"));

  ASSERT_TRUE(cachesCaughtUp());
  auto second =
      ensureDeletion(context_, host_.get(kFederatedConfigMapResource, "ns", "a").value(), names_);
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_EQ(second.value(), ReconcileStatus::kOk);
  // Without its finalizer the object goes (or, had it other finalizers, keeps only those).
  const auto after = host_.get(kFederatedConfigMapResource, "ns", "a");
  EXPECT_TRUE(!after || !objectFinalizers(*after) || objectFinalizers(*after)->empty());
}

// Verifies an unready cluster holds the deletion back with an error that names it, and nothing
// is deleted from it.
TEST_F(SyncPassTest, AnUnreadyClusterHoldsTheDeletionBack) {
  put(placedConfigMap({"m1", "m2"}));
  ASSERT_TRUE(propagateStored());
  ASSERT_TRUE(cachesCaughtUp());
  setCluster("m2", /*ready=*/false);
  Json deleting = host_.get(kFederatedConfigMapResource, "ns", "a").value();
  deleting["metadata"]["deletionTimestamp"] = "2024-01-01T00:00:00Z";
  auto result = ensureDeletion(context_, put(deleting), names_);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("unready [m2]"), std::string::npos)
      << result.error().message;
  EXPECT_TRUE(m2_.get(kConfigMaps, "ns", "a"));
}

// Verifies orphans (the federated object is gone) lose the managed label in every cluster and
// stay otherwise.
TEST_F(SyncPassTest, OrphansLoseTheManagedLabelAndStay) {
  put(placedConfigMap({"m1", "m2"}));
  ASSERT_TRUE(propagateStored());
  ASSERT_TRUE(cachesCaughtUp());
  auto result = releaseOrphans(context_, names_.target);
  ASSERT_TRUE(result) << result.error().describe();
  for (const char* name : {"m1", "m2"}) {
    auto kept = member(name).get(kConfigMaps, "ns", "a");
    ASSERT_TRUE(kept) << name;
    EXPECT_FALSE(hasManagedLabel(*kept)) << name;
    EXPECT_EQ((*kept)["data"]["k"], "v") << name;
  }
}

}  // namespace
}  // namespace kf::sync
