// planFtcReconcile as a table: every step of spec §2.3 with the plan it must produce.

#include "controllers/federatedtypeconfig/ftc_plan.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tests/unit/ftc/ftc_fixtures.h"

namespace kf {
namespace {

using core::FederatedTypeConfig;
using core::FederatedTypeConfigStatus;
using Change = ControllerChange;
using test::withStatus;

FederatedTypeConfig configMaps(const std::string& propagation = "Enabled") {
  return test::configMapsFtc(propagation);
}
FederatedTypeConfig namespaces(const std::string& propagation = "Enabled") {
  return test::namespacesFtc(propagation);
}
FederatedTypeConfig clusterRoles(const std::string& propagation = "Enabled") {
  return test::clusterRolesFtc(propagation);
}
FederatedTypeConfig services(const std::string& status_collection, bool status_type) {
  return test::servicesFtc(status_collection, status_type);
}

constexpr char kRunning[] = "Running";
constexpr char kNotRunning[] = "NotRunning";

FederatedTypeConfigStatus status(const std::string& propagation, const std::string& controller) {
  return {.observed_generation = 2,
          .propagation_controller = propagation,
          .status_controller = controller};
}

struct Seen {
  bool deleting = false;
  bool finalizer = true;
  bool namespaces_ftc = true;
  bool sync = false;
  bool status = false;
  std::int64_t sync_generation = 2;  // of the FTC the running sync controller was started with
};

FtcObservation observe(std::optional<FederatedTypeConfig> ftc, Seen seen,
                       const std::string& name = "") {
  FtcObservation observed;
  observed.name = ftc ? ftc->name() : name;
  observed.ftc = std::move(ftc);
  observed.being_deleted = seen.deleting;
  observed.has_finalizer = seen.finalizer;
  observed.namespaces_ftc_available = seen.namespaces_ftc;
  observed.sync_running = seen.sync;
  observed.sync_generation = seen.sync ? seen.sync_generation : 0;
  observed.status_running = seen.status;
  return observed;
}

struct PlanCase {
  const char* name;
  FtcObservation observed;
  FtcDecisionOptions options;
  FtcPlan expected;
};

const FtcDecisionOptions kClusterPlane{};
const FtcDecisionOptions kScopedPlane{.scoped_control_plane = true};
const FtcDecisionOptions kRawStatus{.raw_resource_status_collection = true};

const std::string kWaitError =
    "Unable to start sync controller for \"FederatedConfigMap\" due to missing "
    "FederatedTypeConfig for namespaces";

std::vector<PlanCase> planCases() {
  const Seen fresh{.finalizer = false};
  const Seen running{.sync = true};
  return {
      // Step 1: not in the cache.
      {"gone: nothing to do", observe(std::nullopt, {}, "configmaps"), kClusterPlane, {}},
      {"gone while running: stop both",
       observe(std::nullopt, {.sync = true, .status = true}, "services"),
       kClusterPlane,
       {.sync = Change::kStop, .status = Change::kStop}},
      {"namespaces gone: namespaced FTCs reconsider",
       observe(std::nullopt, {}, "namespaces"),
       kClusterPlane,
       {.enqueue_namespaced_ftcs = true}},

      // Step 3: scoped control plane, cluster-scoped target with propagation enabled.
      {"scoped, cluster-scoped target: never started, NotRunning written",
       observe(clusterRoles(), fresh),
       kScopedPlane,
       {.status_update = status(kNotRunning, kNotRunning), .skipped_for_scope = true}},
      {"scoped, namespaces FTC is skipped too",
       observe(namespaces(), fresh),
       kScopedPlane,
       {.status_update = status(kNotRunning, kNotRunning), .skipped_for_scope = true}},
      {"scoped, skip with status already written: no write",
       observe(withStatus(clusterRoles(), 2, kNotRunning, kNotRunning), fresh),
       kScopedPlane,
       {.skipped_for_scope = true}},
      {"scoped, cluster-scoped target disabled: normal path, finalizer, NotRunning",
       observe(clusterRoles("Disabled"), fresh),
       kScopedPlane,
       {.finalizer = FinalizerChange::kAdd, .status_update = status(kNotRunning, kNotRunning)}},
      {"scoped, namespaced target: started as usual",
       observe(configMaps(), fresh),
       kScopedPlane,
       {.sync = Change::kStart,
        .finalizer = FinalizerChange::kAdd,
        .status_update = status(kRunning, kNotRunning)}},

      // Step 4: being deleted.
      {"deleting: stop both, remove finalizer",
       observe(configMaps(), {.deleting = true, .sync = true, .status = true}),
       kClusterPlane,
       {.sync = Change::kStop, .status = Change::kStop, .finalizer = FinalizerChange::kRemove}},
      {"deleting, nothing running: remove finalizer only",
       observe(configMaps(), {.deleting = true}),
       kClusterPlane,
       {.finalizer = FinalizerChange::kRemove}},
      {"deleting without finalizer: nothing",
       observe(configMaps(), {.deleting = true, .finalizer = false}),
       kClusterPlane,
       {}},
      {"deleting namespaces: namespaced FTCs reconsider",
       observe(namespaces(), {.deleting = true, .sync = true}),
       kClusterPlane,
       {.sync = Change::kStop,
        .finalizer = FinalizerChange::kRemove,
        .enqueue_namespaced_ftcs = true}},
      {"deleting on a scoped plane still releases the finalizer",
       observe(clusterRoles(), {.deleting = true}),
       kScopedPlane,
       {.finalizer = FinalizerChange::kRemove}},

      // Step 5: finalizer.
      {"new FTC: finalizer added, sync started, Running",
       observe(configMaps(), fresh),
       kClusterPlane,
       {.sync = Change::kStart,
        .finalizer = FinalizerChange::kAdd,
        .status_update = status(kRunning, kNotRunning)}},
      {"namespaces FTC just got its finalizer: namespaced FTCs reconsider",
       observe(namespaces(), {.finalizer = false, .namespaces_ftc = true}),
       kClusterPlane,
       {.sync = Change::kStart,
        .finalizer = FinalizerChange::kAdd,
        .enqueue_namespaced_ftcs = true,
        .status_update = status(kRunning, kNotRunning)}},
      {"namespaces FTC with finalizer: no enqueue",
       observe(withStatus(namespaces(), 2, kRunning, kNotRunning), {.sync = true}),
       kClusterPlane,
       {}},

      // Step 6: the sync controller.
      {"namespaced target without namespaces FTC: wait with KubeFed's error",
       observe(configMaps(), {.finalizer = false, .namespaces_ftc = false}),
       kClusterPlane,
       {.finalizer = FinalizerChange::kAdd, .retry_error = kWaitError}},
      {"namespaced target waiting skips the status controller too",
       observe(services("Enabled", true), {.namespaces_ftc = false}),
       kClusterPlane,
       {.retry_error = "Unable to start sync controller for \"FederatedService\" due to "
                       "missing FederatedTypeConfig for namespaces"}},
      {"namespaces FTC gone while running: stop, NotRunning",
       observe(withStatus(configMaps(), 2, kRunning, kNotRunning),
               {.namespaces_ftc = false, .sync = true}),
       kClusterPlane,
       {.sync = Change::kStop, .status_update = status(kNotRunning, kNotRunning)}},
      {"cluster-scoped target needs no namespaces FTC",
       observe(clusterRoles(), {.namespaces_ftc = false}),
       kClusterPlane,
       {.sync = Change::kStart, .status_update = status(kRunning, kNotRunning)}},
      {"namespaces FTC itself needs no namespaces FTC",
       observe(namespaces(), {.namespaces_ftc = false}),
       kClusterPlane,
       {.sync = Change::kStart, .status_update = status(kRunning, kNotRunning)}},
      {"propagation disabled while running: stop",
       observe(withStatus(configMaps("Disabled"), 2, kRunning, kNotRunning), running),
       kClusterPlane,
       {.sync = Change::kStop, .status_update = status(kNotRunning, kNotRunning)}},
      {"propagation disabled, not running: NotRunning written",
       observe(configMaps("Disabled"), {}),
       kClusterPlane,
       {.status_update = status(kNotRunning, kNotRunning)}},
      {"propagation disabled, waiting for namespaces is irrelevant",
       observe(configMaps("Disabled"), {.namespaces_ftc = false}),
       kClusterPlane,
       {.status_update = status(kNotRunning, kNotRunning)}},
      {"running and up to date: nothing to do",
       observe(withStatus(configMaps(), 2, kRunning, kNotRunning), running),
       kClusterPlane,
       {}},
      {"running after a restart of ours: status was written by an earlier run",
       observe(withStatus(configMaps(), 2, kRunning, kNotRunning), {}),
       kClusterPlane,
       {.sync = Change::kStart}},

      // Step 7: the legacy status controller.
      {"services with status collection and statusType: status controller",
       observe(services("Enabled", true), {}),
       kClusterPlane,
       {.sync = Change::kStart,
        .status = Change::kStart,
        .status_update = status(kRunning, kRunning)}},
      {"services without statusType: no status controller",
       observe(services("Enabled", false), {}),
       kClusterPlane,
       {.sync = Change::kStart, .status_update = status(kRunning, kNotRunning)}},
      {"services with status collection disabled: no status controller",
       observe(services("Disabled", true), {}),
       kClusterPlane,
       {.sync = Change::kStart, .status_update = status(kRunning, kNotRunning)}},
      {"raw status collection gate on: no legacy status controller",
       observe(services("Enabled", true), {}),
       kRawStatus,
       {.sync = Change::kStart, .status_update = status(kRunning, kNotRunning)}},
      {"raw status collection turned on while running: stop it",
       observe(withStatus(services("Enabled", true), 2, kRunning, kRunning),
               {.sync = true, .status = true}),
       kRawStatus,
       {.status = Change::kStop, .status_update = status(kRunning, kNotRunning)}},
      {"status collection for another type: no status controller",
       observe(
           [] {
             FederatedTypeConfig ftc = configMaps();
             ftc.spec.status_collection = "Enabled";
             ftc.spec.status_type = services("Enabled", true).spec.status_type;
             return ftc;
           }(),
           {}),
       kClusterPlane,
       {.sync = Change::kStart, .status_update = status(kRunning, kNotRunning)}},

      // Step 8: refresh on a generation change.
      {"generation changed while running: restart",
       observe(withStatus(configMaps(), 1, kRunning, kNotRunning),
               {.sync = true, .sync_generation = 1}),
       kClusterPlane,
       {.sync = Change::kRestart, .status_update = status(kRunning, kNotRunning)}},
      {"controller current, status behind (a failed write): no restart, status written",
       observe(withStatus(configMaps(), 1, kRunning, kNotRunning), running),
       kClusterPlane,
       {.status_update = status(kRunning, kNotRunning)}},
      {"controller current, no status yet: no restart, status written",
       observe(configMaps(), running),
       kClusterPlane,
       {.status_update = status(kRunning, kNotRunning)}},
      {"generation changed, not running and disabled: no start",
       observe(withStatus(configMaps("Disabled"), 1, kNotRunning, kNotRunning), {}),
       kClusterPlane,
       {.status_update = status(kNotRunning, kNotRunning)}},
      {"generation changed and just started: no second restart",
       observe(withStatus(configMaps(), 1, kNotRunning, kNotRunning), {}),
       kClusterPlane,
       {.sync = Change::kStart, .status_update = status(kRunning, kNotRunning)}},
      {"generation changed and stopped: no restart",
       observe(withStatus(configMaps("Disabled"), 1, kRunning, kNotRunning),
               {.sync = true, .sync_generation = 1}),
       kClusterPlane,
       {.sync = Change::kStop, .status_update = status(kNotRunning, kNotRunning)}},

      // Step 9: the status write.
      {"status controller absent from stored status: written",
       observe(
           [] {
             FederatedTypeConfig ftc = configMaps();
             ftc.status = FederatedTypeConfigStatus{.observed_generation = 2,
                                                    .propagation_controller = kRunning};
             return ftc;
           }(),
           running),
       kClusterPlane,
       {.status_update = status(kRunning, kNotRunning)}},
  };
}

TEST(FtcPlanTest, Table) {
  for (const PlanCase& c : planCases()) {
    const FtcPlan plan = planFtcReconcile(c.observed, c.options);
    EXPECT_EQ(plan.sync, c.expected.sync) << c.name;
    EXPECT_EQ(plan.status, c.expected.status) << c.name;
    EXPECT_EQ(plan.finalizer, c.expected.finalizer) << c.name;
    EXPECT_EQ(plan.enqueue_namespaced_ftcs, c.expected.enqueue_namespaced_ftcs) << c.name;
    EXPECT_EQ(plan.status_update ? plan.status_update->toJson() : Json(),
              c.expected.status_update ? c.expected.status_update->toJson() : Json())
        << c.name;
    EXPECT_EQ(plan.retry_error, c.expected.retry_error) << c.name;
    EXPECT_EQ(plan.skipped_for_scope, c.expected.skipped_for_scope) << c.name;
    EXPECT_TRUE(plan == c.expected) << c.name;
  }
}

// Verifies that fields of the stored status this controller does not own are kept.
TEST(FtcPlanTest, StatusUpdateKeepsUnknownStatusFields) {
  FederatedTypeConfig ftc = withStatus(configMaps(), 1, kNotRunning, kNotRunning);
  ftc.status->extra = Json{{"futureField", "kept"}};
  const FtcPlan plan = planFtcReconcile(observe(ftc, {}), kClusterPlane);
  ASSERT_TRUE(plan.status_update);
  EXPECT_EQ(plan.status_update->toJson(),
            Json::parse(R"({"futureField":"kept","observedGeneration":2,
                            "propagationController":"Running","statusController":"NotRunning"})"));
}

// Verifies the gate of the legacy status controller on its own.
TEST(FtcPlanTest, StatusControllerEnabledOnlyForServicesWithStatusTypeAndGateOff) {
  EXPECT_TRUE(statusControllerEnabled(services("Enabled", true), false));
  EXPECT_FALSE(statusControllerEnabled(services("Enabled", true), true));
  EXPECT_FALSE(statusControllerEnabled(services("Enabled", false), false));
  EXPECT_FALSE(statusControllerEnabled(services("Disabled", true), false));
  EXPECT_FALSE(statusControllerEnabled(configMaps(), false));
}

}  // namespace
}  // namespace kf
