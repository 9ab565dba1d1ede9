// Workload status (beyond KubeFed) with Pods that really run: a FederatedDeployment on two
// members with a node each reports per-cluster and total readiness; a member scaled by hand and
// a member whose new image cannot start show up within seconds, the lagging cluster named; and
// a member event that changes nothing costs the host no write.

#include <gtest/gtest.h>

#include "federation/metrics/sample_parse.h"
#include "tests/node/control_plane.h"
#include "tests/node/workload.h"

namespace kf::node {
namespace {

using std::chrono::seconds;

// One replica everywhere; replicas a member is scaled to by hand are kept (retainReplicas).
Json retainedDeployment(const std::string& ns, const std::string& name) {
  Json deployment = pauseDeployment(ns, name);
  deployment["spec"]["retainReplicas"] = true;
  return deployment;
}

struct WorkloadView {
  Json workload;        // status.workload
  std::string ready;    // the WorkloadReady condition's status
  std::string message;  // and message

  const Json& cluster(const std::string& name) const {
    static const Json kAbsent;
    const auto clusters = workload.find("clusters");
    if (clusters == workload.end() || !clusters->is_array()) return kAbsent;
    for (const Json& entry : *clusters) {
      if (entry.value("name", "") == name) return entry;
    }
    return kAbsent;
  }
  int64_t total(const char* field) const { return workload.value(field, int64_t{-1}); }
  int64_t of(const std::string& name, const char* field) const {
    const Json& entry = cluster(name);
    return entry.is_object() ? entry.value(field, int64_t{-1}) : -1;
  }
  bool rolledOut(const std::string& name) const {
    const Json& entry = cluster(name);
    return entry.is_object() && entry.value("rolledOut", false);
  }
};

WorkloadView viewOf(const std::string& ns, const std::string& name) {
  WorkloadView view;
  Json object = getObject("host", "federateddeployments", name, ns);
  if (!object.is_object()) return view;
  const Json status = object.value("status", Json::object());
  view.workload = status.value("workload", Json::object());
  for (const Json& condition : status.value("conditions", Json::array())) {
    if (condition.value("type", "") != "WorkloadReady") continue;
    view.ready = condition.value("status", "");
    view.message = condition.value("message", "");
  }
  return view;
}

// Whether both members run their one replica and the status says so.
bool allRolledOut(const WorkloadView& view) {
  return view.ready == "True" && view.total("readyReplicas") == 2 &&
         view.total("availableReplicas") == 2 && view.of("member1", "readyReplicas") == 1 &&
         view.of("member2", "readyReplicas") == 1 && view.rolledOut("member1") &&
         view.rolledOut("member2");
}

// Host namespaces earlier tests left Terminating: their federated objects' finalizers are still
// being released, which writes to the host.
bool noNamespaceTerminating() {
  CommandResult phases = kubectl("host", "get namespaces -o jsonpath={.items[*].status.phase}");
  return phases.status == 0 && phases.output.find("Terminating") == std::string::npos;
}

int64_t hostDeploymentWrites() {
  const std::string text = hostApiServerMetrics();
  return text.empty() ? -1 : metrics::apiServerWrites(text, "federateddeployments");
}

TEST(WorkloadStatusNodeTest, ReportsReadinessFollowsHandScalingAndNamesABrokenRollout) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  FederatedTestNamespace ns("workload", /*federate=*/true);
  std::string out;
  ASSERT_TRUE(applyYaml("host", retainedDeployment(ns.name(), "web").dump(), &out)) << out;

  WorkloadView view;
  EXPECT_TRUE(waitFor([&] { return allRolledOut(view = viewOf(ns.name(), "web")); }, seconds(120)))
      << view.workload.dump() << " WorkloadReady=" << view.ready << " " << view.message << "\n"
      << kubectl("member2", "-n " + ns.name() + " get pods -o wide").output;

  // A member event that changes nothing: annotating the member's Deployment reaches the
  // workload status controller (its reconcile count grows) but the host gets no write.
  ASSERT_TRUE(waitFor(noNamespaceTerminating, seconds(120)))
      << kubectl("host", "get namespaces").output;
  const int64_t writes_before = hostDeploymentWrites();
  const int64_t reconciles_before = leaderReconciles("workloadstatuscontroller");
  ASSERT_GE(writes_before, 0);
  ASSERT_GE(reconciles_before, 0) << "no metrics from the leader";
  CommandResult annotated = kubectl(
      "member1", "-n " + ns.name() + " annotate deployment web kubefed-cpp.test/touched=yes");
  ASSERT_EQ(annotated.status, 0) << annotated.output;
  EXPECT_TRUE(
      waitFor([&] { return leaderReconciles("workloadstatuscontroller") > reconciles_before; },
              seconds(30)));
  EXPECT_EQ(hostDeploymentWrites(), writes_before)
      << "the host received writes to federateddeployments while nothing changed";

  // member2's new pods cannot start: their image is not on the node (and never pulled). With
  // one replica the old pod stays available; the status names member2 and why.
  Json broken = retainedDeployment(ns.name(), "web");
  broken["spec"]["overrides"] = {{{"clusterName", "member2"},
                                  {"clusterOverrides",
                                   {{{"path", "/spec/template/spec/containers/0/image"},
                                     {"value", "localhost/kubefed-cpp/pause:not-built-here"}}}}}};
  ASSERT_TRUE(applyYaml("host", broken.dump(), &out)) << out;
  EXPECT_TRUE(waitFor(
      [&] {
        view = viewOf(ns.name(), "web");
        return view.ready == "False" && view.message.find("member2") != std::string::npos &&
               view.message.find("member1") == std::string::npos && !view.rolledOut("member2") &&
               view.rolledOut("member1");
      },
      seconds(30)))
      << view.workload.dump() << " WorkloadReady=" << view.ready << " " << view.message;

  // member1 scaled by hand: its share and the total follow, and its new pods become ready.
  CommandResult scaled =
      kubectl("member1", "-n " + ns.name() + " scale deployment web --replicas=3");
  ASSERT_EQ(scaled.status, 0) << scaled.output;
  EXPECT_TRUE(waitFor(
      [&] {
        view = viewOf(ns.name(), "web");
        return view.of("member1", "desiredReplicas") == 3 &&
               view.of("member1", "readyReplicas") == 3 && view.rolledOut("member1") &&
               view.total("desiredReplicas") == 4 &&
               view.message.find("member2") != std::string::npos;
      },
      seconds(60)))
      << view.workload.dump() << " WorkloadReady=" << view.ready << " " << view.message;
}

}  // namespace
}  // namespace kf::node
