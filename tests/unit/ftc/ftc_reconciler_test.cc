// The FTC reconciler's observe and act: what it writes, starts, stops, queues and reports, over
// an informer Store, a fake writer, a recording factory and a fake event recorder.

#include "controllers/federatedtypeconfig/ftc_reconciler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "federation/controller/finalizers.h"
#include "tests/support/fake_event_recorder.h"
#include "tests/unit/ftc/ftc_fixtures.h"
#include "tests/unit/ftc/recording_type_controllers.h"

namespace kf {
namespace {

using test::kFtcNamespace;
using Kind = TypeControllerKind;

bool succeeded(const ReconcileResult& result) {
  return result && result.value() == ReconcileStatus::kOk;
}
bool failed(const ReconcileResult& result) { return !result; }

// Applies writes to its own copy of each FTC and bumps resourceVersion like a server; any write
// can be made to fail once.
class FakeFtcWriter final : public FtcWriter {
 public:
  struct Patch {
    std::string name;
    std::vector<std::string> finalizers;
  };

  Result<Json> patchFinalizers(const std::string& name,
                               const std::vector<std::string>& finalizers) override {
    patches.push_back({name, finalizers});
    if (auto error = std::exchange(fail_next_patch, std::nullopt)) return *error;
    Json& object = stored.at(name);
    object["metadata"]["finalizers"] = finalizers;
    return bump(object);
  }
  Result<Json> updateStatus(const Json& ftc) override {
    status_writes.push_back(ftc);
    if (auto error = std::exchange(fail_next_status, std::nullopt)) return *error;
    Json& object = stored.at(objectName(ftc));
    object["status"] = ftc.at("status");
    return bump(object);
  }

  std::map<std::string, Json> stored;
  std::vector<Patch> patches;
  std::vector<Json> status_writes;
  std::optional<ApiError> fail_next_patch;
  std::optional<ApiError> fail_next_status;

 private:
  static Json bump(Json& object) {
    const int version = std::stoi(objectResourceVersion(object));
    object["metadata"]["resourceVersion"] = std::to_string(version + 1);
    return object;
  }
};

class FtcReconcilerTest : public ::testing::Test {
 protected:
  // Puts the FTC in the cache (and the writer's "server") at resourceVersion 10.
  Json cache(const core::FederatedTypeConfig& ftc, bool with_finalizer = true) {
    Json object = ftc.toJson();
    object["metadata"]["resourceVersion"] = "10";
    object["metadata"]["uid"] = "uid-" + ftc.name();
    if (with_finalizer) object["metadata"]["finalizers"] = {kFtcFinalizer};
    store_.add(makeObject(object));
    writer_.stored[ftc.name()] = object;
    return object;
  }
  // The cache catches up with what the writer stored.
  void refreshCache(const std::string& name) { store_.add(makeObject(writer_.stored.at(name))); }
  void markDeleting(const std::string& name) {
    Json object = writer_.stored.at(name);
    object["metadata"]["deletionTimestamp"] = "2026-11-22T00:00:00Z";
    writer_.stored[name] = object;
    store_.add(makeObject(object));
  }

  ReconcileResult reconcile(const std::string& name) {
    return reconciler_.reconcile(std::string(kFtcNamespace) + "/" + name);
  }
  Json lastStatus() const {
    return writer_.status_writes.empty() ? Json() : writer_.status_writes.back().at("status");
  }
  std::vector<std::string> reasons(EventType type) const {
    std::vector<std::string> out;
    for (const auto& e : events_.events()) {
      if (e.type == type) out.push_back(e.reason);
    }
    return out;
  }

  Store store_;
  FakeFtcWriter writer_;
  test::RecordingTypeControllerFactory factory_;
  test::FakeEventRecorder events_;
  RunningControllers running_;
  std::vector<std::string> enqueued_;
  FtcReconciler reconciler_{
      FtcReconcilerOptions{.kubefed_namespace = kFtcNamespace, .decision = {}},
      FtcReconcilerDeps{.cache = store_,
                        .writer = writer_,
                        .factory = factory_,
                        .events = events_,
                        .running = running_,
                        .enqueue = [this](const std::string& key) { enqueued_.push_back(key); }}};
};

const Json kRunningStatus = Json::parse(
    R"({"observedGeneration":2,"propagationController":"Running","statusController":"NotRunning"})");
const Json kNotRunningStatus = Json::parse(
    R"({"observedGeneration":2,"propagationController":"NotRunning",
        "statusController":"NotRunning"})");

// Verifies the first pass over a new FTC: finalizer patched, sync controller started, status PUT
// at the patched resourceVersion.
TEST_F(FtcReconcilerTest, NewFtcGetsFinalizerStartedControllerAndRunningStatus) {
  cache(test::namespacesFtc());
  cache(test::configMapsFtc(), /*with_finalizer=*/false);

  EXPECT_TRUE(succeeded(reconcile("configmaps")));

  ASSERT_EQ(writer_.patches.size(), 1U);
  EXPECT_EQ(writer_.patches[0].finalizers, std::vector<std::string>{kFtcFinalizer});
  EXPECT_EQ(factory_.live("configmaps", Kind::kSync), 1);
  EXPECT_TRUE(running_.isRunning("configmaps", Kind::kSync));
  ASSERT_EQ(writer_.status_writes.size(), 1U);
  EXPECT_EQ(objectResourceVersion(writer_.status_writes[0]), "11");
  EXPECT_EQ(lastStatus(), kRunningStatus);
  EXPECT_EQ(events_.reasons(), std::vector<std::string>{"ControllerStarted"});
  EXPECT_EQ(events_.events()[0].message, "Started sync controller for \"FederatedConfigMap\"");
  EXPECT_EQ(events_.events()[0].object.name, "configmaps");
  EXPECT_TRUE(enqueued_.empty());

  // A second pass once the cache caught up changes nothing and writes nothing.
  refreshCache("configmaps");
  EXPECT_TRUE(succeeded(reconcile("configmaps")));
  EXPECT_EQ(writer_.patches.size(), 1U);
  EXPECT_EQ(writer_.status_writes.size(), 1U);
  EXPECT_EQ(factory_.starts("configmaps", Kind::kSync), 1);
}

// Verifies that a failing start is a Warning event and a retry, with no status written.
TEST_F(FtcReconcilerTest, FailingStartIsWarningAndRetry) {
  cache(test::namespacesFtc());
  cache(test::configMapsFtc());
  factory_.failStarts("configmaps", Kind::kSync, makeError(Reason::kNotFound, "no such CRD"));

  EXPECT_TRUE(failed(reconcile("configmaps")));

  EXPECT_FALSE(running_.isRunning("configmaps", Kind::kSync));
  EXPECT_TRUE(writer_.status_writes.empty());
  ASSERT_EQ(reasons(EventType::kWarning), std::vector<std::string>{"ControllerStartFailed"});
  EXPECT_EQ(events_.events()[0].message,
            "Failed to start sync controller for \"FederatedConfigMap\": no such CRD");

  factory_.clearFailures();
  EXPECT_TRUE(succeeded(reconcile("configmaps")));
  EXPECT_TRUE(running_.isRunning("configmaps", Kind::kSync));
}

// Verifies that a status controller that fails to start does not hide the running sync
// controller: the status says propagation Running, status NotRunning, and the start is retried.
TEST_F(FtcReconcilerTest, FailingStatusStartStillWritesTheStatus) {
  cache(test::namespacesFtc());
  cache(test::servicesFtc("Enabled", true));
  factory_.failStarts("services", Kind::kStatus, makeError(Reason::kUnknown, "no informer"));

  EXPECT_TRUE(failed(reconcile("services")));

  EXPECT_TRUE(running_.isRunning("services", Kind::kSync));
  EXPECT_FALSE(running_.isRunning("services", Kind::kStatus));
  ASSERT_EQ(writer_.status_writes.size(), 1U);
  EXPECT_EQ(writer_.status_writes[0]["status"]["propagationController"], "Running");
  EXPECT_EQ(writer_.status_writes[0]["status"]["statusController"], "NotRunning");

  factory_.clearFailures();
  EXPECT_TRUE(succeeded(reconcile("services")));
  EXPECT_TRUE(running_.isRunning("services", Kind::kStatus));
}

// Verifies that a namespaced type waits for the namespaces FTC: finalizer added, KubeFed's
// error reported, nothing started, no status; the namespaces FTC then unblocks it.
TEST_F(FtcReconcilerTest, NamespacedTypeWaitsForNamespacesFtc) {
  cache(test::configMapsFtc(), /*with_finalizer=*/false);

  EXPECT_TRUE(failed(reconcile("configmaps")));
  EXPECT_EQ(writer_.patches.size(), 1U);
  EXPECT_EQ(factory_.starts("configmaps", Kind::kSync), 0);
  EXPECT_TRUE(writer_.status_writes.empty());
  ASSERT_EQ(reasons(EventType::kWarning), std::vector<std::string>{"ControllerStartFailed"});
  EXPECT_EQ(events_.events()[0].message,
            "Unable to start sync controller for \"FederatedConfigMap\" due to missing "
            "FederatedTypeConfig for namespaces");

  cache(test::namespacesFtc(), /*with_finalizer=*/false);
  EXPECT_TRUE(succeeded(reconcile("namespaces")));
  EXPECT_EQ(enqueued_, std::vector<std::string>{std::string(kFtcNamespace) + "/configmaps"});

  refreshCache("configmaps");
  EXPECT_TRUE(succeeded(reconcile("configmaps")));
  EXPECT_TRUE(running_.isRunning("configmaps", Kind::kSync));
}

// Verifies that the namespaces FTC getting its finalizer queues only FTCs of namespaced types.
TEST_F(FtcReconcilerTest, NamespacesFtcQueuesOnlyNamespacedTypes) {
  cache(test::configMapsFtc());
  cache(test::servicesFtc("Disabled", false));
  cache(test::clusterRolesFtc());
  cache(test::namespacesFtc(), /*with_finalizer=*/false);

  EXPECT_TRUE(succeeded(reconcile("namespaces")));
  std::sort(enqueued_.begin(), enqueued_.end());
  EXPECT_EQ(enqueued_, (std::vector<std::string>{std::string(kFtcNamespace) + "/configmaps",
                                                 std::string(kFtcNamespace) + "/services"}));

  // Once the finalizer is there, passes over the namespaces FTC queue nothing more.
  enqueued_.clear();
  refreshCache("namespaces");
  EXPECT_TRUE(succeeded(reconcile("namespaces")));
  EXPECT_TRUE(enqueued_.empty());
}

// Verifies deletion: controllers stopped (with events) before the finalizer is removed.
TEST_F(FtcReconcilerTest, DeletionStopsControllersThenRemovesFinalizer) {
  cache(test::namespacesFtc());
  cache(test::servicesFtc("Enabled", true));
  ASSERT_TRUE(succeeded(reconcile("services")));
  ASSERT_EQ(factory_.live(), 2);

  markDeleting("services");
  EXPECT_TRUE(succeeded(reconcile("services")));

  EXPECT_EQ(factory_.live(), 0);
  EXPECT_EQ(factory_.stops("services", Kind::kSync), 1);
  EXPECT_EQ(factory_.stops("services", Kind::kStatus), 1);
  EXPECT_TRUE(running_.names(Kind::kSync).empty());
  ASSERT_EQ(writer_.patches.size(), 1U);
  EXPECT_TRUE(writer_.patches[0].finalizers.empty());
  EXPECT_EQ(writer_.status_writes.size(), 1U) << "no status write while deleting";
  EXPECT_EQ(events_.reasons(),
            (std::vector<std::string>{"ControllerStarted", "ControllerStarted", "ControllerStopped",
                                      "ControllerStopped"}));
}

// Verifies that deleting the namespaces FTC stops namespaced types once they are reconciled.
TEST_F(FtcReconcilerTest, DeletingNamespacesFtcStopsNamespacedTypes) {
  cache(test::namespacesFtc());
  cache(test::configMapsFtc());
  ASSERT_TRUE(succeeded(reconcile("namespaces")));
  ASSERT_TRUE(succeeded(reconcile("configmaps")));
  refreshCache("configmaps");

  markDeleting("namespaces");
  EXPECT_TRUE(succeeded(reconcile("namespaces")));
  EXPECT_EQ(enqueued_, std::vector<std::string>{std::string(kFtcNamespace) + "/configmaps"});
  EXPECT_FALSE(running_.isRunning("namespaces", Kind::kSync));

  EXPECT_TRUE(succeeded(reconcile("configmaps")));
  EXPECT_FALSE(running_.isRunning("configmaps", Kind::kSync));
  EXPECT_EQ(lastStatus(), kNotRunningStatus);
}

// Verifies the refresh: a generation change restarts the running controller with the new FTC.
TEST_F(FtcReconcilerTest, GenerationChangeRestartsSyncControllerWithNewSpec) {
  cache(test::namespacesFtc());
  cache(test::configMapsFtc());
  ASSERT_TRUE(succeeded(reconcile("configmaps")));
  refreshCache("configmaps");

  Json changed = writer_.stored.at("configmaps");
  changed["metadata"]["generation"] = 3;
  changed["spec"]["targetType"]["version"] = "v2";
  writer_.stored["configmaps"] = changed;
  store_.add(makeObject(changed));

  EXPECT_TRUE(succeeded(reconcile("configmaps")));
  EXPECT_EQ(factory_.starts("configmaps", Kind::kSync), 2);
  EXPECT_EQ(factory_.stops("configmaps", Kind::kSync), 1);
  EXPECT_EQ(factory_.live("configmaps", Kind::kSync), 1);
  EXPECT_EQ(factory_.lastStarted("configmaps", Kind::kSync)->spec.target_type.version, "v2");
  EXPECT_EQ(lastStatus().at("observedGeneration"), 3);
}

// Verifies that disabling propagation stops the controller and reports NotRunning.
TEST_F(FtcReconcilerTest, DisablingPropagationStopsController) {
  cache(test::namespacesFtc());
  cache(test::configMapsFtc());
  ASSERT_TRUE(succeeded(reconcile("configmaps")));
  refreshCache("configmaps");

  Json disabled = writer_.stored.at("configmaps");
  disabled["spec"]["propagation"] = "Disabled";
  writer_.stored["configmaps"] = disabled;
  store_.add(makeObject(disabled));

  EXPECT_TRUE(succeeded(reconcile("configmaps")));
  EXPECT_EQ(factory_.live(), 0);
  EXPECT_EQ(lastStatus(), kNotRunningStatus);
  EXPECT_EQ(events_.events().back().message, "Stopped sync controller for \"FederatedConfigMap\"");
}

// Verifies that a finalizer conflict (stale cache) retries quietly, another failure warns.
TEST_F(FtcReconcilerTest, FinalizerConflictRetriesWithoutWarning) {
  cache(test::namespacesFtc());
  cache(test::configMapsFtc(), /*with_finalizer=*/false);
  writer_.fail_next_patch = makeError(Reason::kConflict, "the object has been modified");
  EXPECT_TRUE(failed(reconcile("configmaps")));
  EXPECT_TRUE(events_.events().empty());
  EXPECT_EQ(factory_.starts("configmaps", Kind::kSync), 0);

  writer_.fail_next_patch = makeError(Reason::kForbidden, "forbidden");
  EXPECT_TRUE(failed(reconcile("configmaps")));
  EXPECT_EQ(reasons(EventType::kWarning), std::vector<std::string>{"FinalizerUpdateFailed"});
}

// Verifies that a failed status write is retried and the started controller kept.
TEST_F(FtcReconcilerTest, StatusWriteFailureRetriesAndKeepsController) {
  cache(test::namespacesFtc());
  cache(test::configMapsFtc());
  writer_.fail_next_status = makeError(Reason::kInternalError, "etcd down");
  EXPECT_TRUE(failed(reconcile("configmaps")));
  EXPECT_TRUE(running_.isRunning("configmaps", Kind::kSync));
  EXPECT_EQ(reasons(EventType::kWarning), std::vector<std::string>{"StatusUpdateFailed"});

  EXPECT_TRUE(succeeded(reconcile("configmaps")));
  EXPECT_EQ(factory_.starts("configmaps", Kind::kSync), 1);
  EXPECT_EQ(lastStatus(), kRunningStatus);
}

// Verifies that an FTC gone from the cache has its controllers stopped.
TEST_F(FtcReconcilerTest, VanishedFtcStopsItsControllers) {
  cache(test::namespacesFtc());
  cache(test::configMapsFtc());
  ASSERT_TRUE(succeeded(reconcile("configmaps")));
  store_.remove(std::string(kFtcNamespace) + "/configmaps");

  EXPECT_TRUE(succeeded(reconcile("configmaps")));
  EXPECT_EQ(factory_.live(), 0);
  EXPECT_EQ(events_.events().back().object.name, "configmaps");
  EXPECT_EQ(events_.events().back().object.kind, "FederatedTypeConfig");
}

// Verifies a scoped control plane: cluster-scoped types are never started, no finalizer is
// added, and NotRunning is reported.
TEST_F(FtcReconcilerTest, ScopedPlaneSkipsClusterScopedTypes) {
  FtcReconciler scoped(
      FtcReconcilerOptions{.kubefed_namespace = kFtcNamespace,
                           .decision = {.scoped_control_plane = true}},
      FtcReconcilerDeps{.cache = store_,
                        .writer = writer_,
                        .factory = factory_,
                        .events = events_,
                        .running = running_,
                        .enqueue = [this](const std::string& key) { enqueued_.push_back(key); }});
  cache(test::clusterRolesFtc(), /*with_finalizer=*/false);
  const std::string name = test::clusterRolesFtc().name();

  EXPECT_TRUE(succeeded(scoped.reconcile(std::string(kFtcNamespace) + "/" + name)));
  EXPECT_EQ(factory_.live(), 0);
  EXPECT_TRUE(writer_.patches.empty());
  EXPECT_EQ(lastStatus(), kNotRunningStatus);
}

// Verifies that keys of other namespaces are ignored.
TEST_F(FtcReconcilerTest, KeysOfOtherNamespacesAreIgnored) {
  Json object = test::configMapsFtc().toJson();
  object["metadata"]["namespace"] = "elsewhere";
  object["metadata"]["resourceVersion"] = "1";
  store_.add(makeObject(object));
  EXPECT_TRUE(succeeded(reconciler_.reconcile("elsewhere/configmaps")));
  EXPECT_TRUE(writer_.patches.empty());
  EXPECT_EQ(factory_.live(), 0);
}

// Verifies that a malformed FTC is reported once and not retried.
TEST_F(FtcReconcilerTest, MalformedFtcIsWarnedAboutAndNotRetried) {
  Json object = test::configMapsFtc().toJson();
  object["spec"]["targetType"] = "not an object";
  object["metadata"]["resourceVersion"] = "1";
  store_.add(makeObject(object));
  EXPECT_TRUE(succeeded(reconcile("configmaps")));
  EXPECT_EQ(reasons(EventType::kWarning), std::vector<std::string>{"InvalidFederatedTypeConfig"});
  EXPECT_TRUE(writer_.patches.empty());
}

}  // namespace
}  // namespace kf
