// The FederatedTypeConfig controller in-process against the real host cluster: FTCs written
// through the API, sync/status controllers replaced by a recording factory.

#include "controllers/federatedtypeconfig/ftc_controller.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "federation/client/resource_client.h"
#include "federation/events/api_event_recorder.h"
#include "federation/informer/shared_informer.h"
#include "federation/metrics/kubefed_metrics.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"
#include "tests/unit/ftc/recording_type_controllers.h"

namespace kf::integration {
namespace {

using Kind = TypeControllerKind;
using std::chrono::seconds;

// An FTC as the Helm chart installs it.
Json ftcJson(const std::string& name, const std::string& kind, const std::string& scope) {
  const std::string plural = name.substr(0, name.find('.'));
  return {{"apiVersion", "core.kubefed.io/v1beta1"},
          {"kind", "FederatedTypeConfig"},
          {"metadata", {{"name", name}}},
          {"spec",
           {{"federatedType",
             {{"group", "types.kubefed.io"},
              {"kind", "Federated" + kind},
              {"pluralName", "federated" + plural},
              {"scope", "Namespaced"},
              {"version", "v1beta1"}}},
            {"propagation", "Enabled"},
            {"targetType",
             {{"kind", kind}, {"pluralName", plural}, {"scope", scope}, {"version", "v1"}}}}}};
}

class FtcControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    host_ = LocalClusters::get().client("host");
    namespace_ = std::make_unique<TestNamespace>(*host_, "ftc-controller");
    ftcs_ = std::make_unique<ResourceClient>(*host_, kFederatedTypeConfigResource, ns());
    informer_ = std::make_unique<SharedInformer>(
        makeListerWatcher(*host_, kFederatedTypeConfigResource, ns(), "", ""), realClock());
    events_ = std::make_unique<ApiEventRecorder>(*host_, "federatedtypeconfig-controller",
                                                 "ftc-controller-test", realClock());
    controller_ = std::make_unique<FtcController>(FtcControllerOptions{.kubefed_namespace = ns()},
                                                  FtcControllerDeps{.host = *host_,
                                                                    .factory = factory_,
                                                                    .events = *events_,
                                                                    .clock = realClock(),
                                                                    .ftc_informer = *informer_});
    ASSERT_TRUE(controller_->start());
  }

  void TearDown() override {
    if (controller_) controller_->stop();
    // FTCs left with our finalizer would never go away once the controller is gone.
    if (ftcs_) {
      for (const char* name : {"configmaps", "namespaces"}) {
        (void)ftcs_->patch(name, PatchType::kMerge, R"({"metadata":{"finalizers":null}})");
        (void)ftcs_->remove(name);
      }
    }
    controller_.reset();
    if (events_) events_->stop();
    if (informer_) informer_->stop();
  }

  const std::string& ns() const { return namespace_->name(); }

  void create(const Json& ftc) {
    auto created = ftcs_->create(ftc);
    ASSERT_TRUE(created) << created.error().describe();
  }
  void mergePatch(const std::string& name, const Json& patch) {
    auto patched = ftcs_->patch(name, PatchType::kMerge, patch.dump());
    ASSERT_TRUE(patched) << patched.error().describe();
  }
  Json get(const std::string& name) {
    auto ftc = ftcs_->get(name);
    return ftc ? ftc.value() : Json();
  }

  // The stored status says `propagation` for the FTC's current generation.
  bool statusIs(const std::string& name, const std::string& propagation) {
    const Json ftc = get(name);
    if (!ftc.is_object() || !ftc.contains("status")) return false;
    const Json& status = ftc["status"];
    return status.value("propagationController", "") == propagation &&
           status.value("statusController", "") == "NotRunning" &&
           status.value("observedGeneration", -1) == ftc["metadata"].value("generation", -2);
  }
  bool hasOurFinalizer(const std::string& name) {
    const Json ftc = get(name);
    if (!ftc.is_object()) return false;
    for (const Json& f : ftc["metadata"].value("finalizers", Json::array())) {
      if (f == kFtcFinalizer) return true;
    }
    return false;
  }
  bool gone(const std::string& name) {
    auto ftc = ftcs_->get(name);
    return !ftc && isNotFound(ftc.error());
  }
  bool eventRecorded(const std::string& ftc_name, const std::string& reason) {
    auto events = ResourceClient(*host_, kEvents, ns()).list({});
    if (!events) return false;
    for (const Json& event : events.value().items) {
      if (event["involvedObject"].value("name", "") == ftc_name &&
          event.value("reason", "") == reason) {
        return true;
      }
    }
    return false;
  }

  std::unique_ptr<RestClient> host_;
  std::unique_ptr<TestNamespace> namespace_;
  std::unique_ptr<ResourceClient> ftcs_;
  std::unique_ptr<SharedInformer> informer_;
  std::unique_ptr<ApiEventRecorder> events_;
  test::RecordingTypeControllerFactory factory_;
  std::unique_ptr<FtcController> controller_;
};

// Verifies the whole life of an FTC: started and reported Running with our finalizer; stopped
// when propagation is disabled; started again; restarted on a spec change; stopped and its
// finalizer released on deletion; and stop() leaves nothing running.
TEST_F(FtcControllerTest, StartsStopsRestartsAndReleasesSyncControllerAsFtcSays) {
  // 1. The namespaces FTC, which namespaced types need, and the configmaps FTC.
  create(ftcJson("namespaces", "Namespace", "Cluster"));
  create(ftcJson("configmaps", "ConfigMap", "Namespaced"));
  ASSERT_TRUE(eventually([&] { return statusIs("configmaps", "Running"); })) << get("configmaps");
  EXPECT_TRUE(hasOurFinalizer("configmaps"));
  EXPECT_EQ(factory_.live("configmaps", Kind::kSync), 1);
  EXPECT_EQ(factory_.starts("configmaps", Kind::kSync), 1);
  EXPECT_EQ(factory_.live("configmaps", Kind::kStatus), 0);
  EXPECT_TRUE(eventually([&] { return statusIs("namespaces", "Running"); }));
  EXPECT_EQ(controller_->runningSyncControllers(),
            (std::vector<std::string>{"configmaps", "namespaces"}));
  EXPECT_TRUE(eventually([&] { return eventRecorded("configmaps", "ControllerStarted"); }));

  // 2. Propagation disabled: the controller is stopped and NotRunning reported.
  mergePatch("configmaps", {{"spec", {{"propagation", "Disabled"}}}});
  ASSERT_TRUE(eventually([&] { return statusIs("configmaps", "NotRunning"); }))
      << get("configmaps");
  EXPECT_EQ(factory_.live("configmaps", Kind::kSync), 0);
  EXPECT_EQ(factory_.stops("configmaps", Kind::kSync), 1);

  // 3. Enabled again.
  mergePatch("configmaps", {{"spec", {{"propagation", "Enabled"}}}});
  ASSERT_TRUE(eventually([&] { return statusIs("configmaps", "Running"); }));
  EXPECT_EQ(factory_.starts("configmaps", Kind::kSync), 2);
  EXPECT_EQ(factory_.live("configmaps", Kind::kSync), 1);

  // 4. A spec change (new generation) restarts it with the new spec.
  const std::int64_t generation = get("configmaps")["metadata"].value("generation", 0);
  mergePatch("configmaps", {{"spec", {{"targetType", {{"version", "v2"}}}}}});
  ASSERT_TRUE(eventually([&] {
    return statusIs("configmaps", "Running") &&
           get("configmaps")["status"].value("observedGeneration", 0) > generation;
  }));
  EXPECT_EQ(factory_.starts("configmaps", Kind::kSync), 3);
  EXPECT_EQ(factory_.stops("configmaps", Kind::kSync), 2);
  EXPECT_EQ(factory_.live("configmaps", Kind::kSync), 1);
  EXPECT_EQ(factory_.lastStarted("configmaps", Kind::kSync)->spec.target_type.version, "v2");

  // 5. Deleted: the controller stops and the finalizer is released, so the FTC goes away.
  ASSERT_TRUE(ftcs_->remove("configmaps"));
  ASSERT_TRUE(eventually([&] { return gone("configmaps"); }));
  EXPECT_TRUE(eventually([&] { return factory_.live("configmaps", Kind::kSync) == 0; }));
  EXPECT_EQ(controller_->runningSyncControllers(), std::vector<std::string>{"namespaces"});

  // 6. Reconciles and the work queue are measured under KubeFed's names.
  const std::string metrics = metrics::renderPrometheusText();
  EXPECT_NE(metrics.find("controller_runtime_reconcile_duration_seconds_count{controller="
                         "\"federatedtypeconfigcontroller\"}"),
            std::string::npos);
  EXPECT_NE(metrics.find("workqueue_adds_total{name=\"federatedtypeconfig\"}"), std::string::npos);

  // 7. stop() stops every child controller before it returns.
  controller_->stop();
  EXPECT_EQ(factory_.live(), 0);
  EXPECT_TRUE(controller_->runningSyncControllers().empty());
}

// Verifies that a namespaced type waits for the namespaces FTC (with a finalizer, no status),
// starts as soon as it appears, and stops when it is deleted.
TEST_F(FtcControllerTest, NamespacedTypeRunsOnlyWhileNamespacesFtcExists) {
  // 1. configmaps alone: reconciled (finalizer added) but not started, no status.
  create(ftcJson("configmaps", "ConfigMap", "Namespaced"));
  ASSERT_TRUE(eventually([&] { return hasOurFinalizer("configmaps"); }));
  ASSERT_TRUE(eventually([&] { return eventRecorded("configmaps", "ControllerStartFailed"); }));
  EXPECT_EQ(factory_.starts("configmaps", Kind::kSync), 0);
  EXPECT_FALSE(get("configmaps").contains("status"));

  // 2. The namespaces FTC appears: configmaps is queued at once, not after its 5 s backoff.
  create(ftcJson("namespaces", "Namespace", "Cluster"));
  EXPECT_TRUE(eventually([&] { return statusIs("configmaps", "Running"); },
                         std::chrono::milliseconds(4000)))
      << get("configmaps");
  ASSERT_TRUE(eventually([&] { return statusIs("configmaps", "Running"); }));
  EXPECT_EQ(factory_.live("configmaps", Kind::kSync), 1);

  // 3. The namespaces FTC is deleted: configmaps' controller stops.
  ASSERT_TRUE(ftcs_->remove("namespaces"));
  ASSERT_TRUE(eventually([&] { return gone("namespaces"); }));
  ASSERT_TRUE(eventually([&] { return statusIs("configmaps", "NotRunning"); }))
      << get("configmaps");
  EXPECT_EQ(factory_.live(), 0);

  // 4. stop() with configmaps still present leaves nothing running.
  controller_->stop();
  EXPECT_EQ(factory_.live(), 0);
}

}  // namespace
}  // namespace kf::integration
