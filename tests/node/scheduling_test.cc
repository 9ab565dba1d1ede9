// ReplicaSchedulingPreference with Pods that really schedule: a member whose node cannot take
// the workload's Pods (they stay Pending, Unschedulable) has its replicas moved to the other
// member once they have been unschedulable for longer than KubeFed's 60-second window, and stay
// there while they start and once they run.

#include <gtest/gtest.h>

#include "tests/integration/local_clusters.h"
#include "tests/node/control_plane.h"
#include "tests/node/workload.h"

namespace kf::node {
namespace {

using std::chrono::seconds;

constexpr const char* kFitsLabel = "kubefed-cpp.test/rsp-fits";

// A label on one member's node, removed again at the end of the test.
class NodeLabel {
 public:
  NodeLabel(std::string member, std::string label)
      : member_(std::move(member)),
        label_(std::move(label)),
        node_(integration::LocalClusters::get().env("KF_" + upper(member_) + "_NODE")) {
    result_ = kubectl(member_, "label node " + node_ + " " + label_ + "=yes --overwrite");
  }
  ~NodeLabel() { kubectl(member_, "label node " + node_ + " " + label_ + "-"); }
  NodeLabel(const NodeLabel&) = delete;
  NodeLabel& operator=(const NodeLabel&) = delete;

  const CommandResult& result() const { return result_; }

 private:
  static std::string upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
  }

  std::string member_;
  std::string label_;
  std::string node_;
  CommandResult result_;
};

// Pods only fit a node labelled kFitsLabel; the RSP decides the replicas.
std::string pickyDeployment(const std::string& ns, const std::string& name) {
  Json deployment = pauseDeployment(ns, name);
  deployment["spec"]["template"]["spec"]["template"]["spec"]["nodeSelector"] = {
      {kFitsLabel, "yes"}};
  return deployment.dump();
}

std::string preference(const std::string& ns, const std::string& name) {
  return "apiVersion: scheduling.kubefed.io/v1alpha1\nkind: ReplicaSchedulingPreference\n"
         "metadata:\n  name: " +
         name + "\n  namespace: " + ns +
         "\nspec:\n  targetKind: FederatedDeployment\n  totalReplicas: 4\n"
         "  clusters:\n    member1: {weight: 1}\n    member2: {weight: 1}\n";
}

int readyReplicasIn(const std::string& member, const std::string& ns, const std::string& name) {
  Json deployment = getObject(member, "deployments", name, ns);
  return deployment.is_object()
             ? deployment.value("status", Json::object()).value("readyReplicas", 0)
             : -1;
}

std::string replicasSeen(const std::string& ns, const std::string& name) {
  return "member1 " + std::to_string(memberReplicas("member1", ns, name)) + " (" +
         std::to_string(readyReplicasIn("member1", ns, name)) + " ready), member2 " +
         std::to_string(memberReplicas("member2", ns, name)) + " (" +
         std::to_string(readyReplicasIn("member2", ns, name)) + " ready)";
}

TEST(SchedulingNodeTest, ReplicasLeaveAMemberWhosePodsStayUnschedulable) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  NodeLabel fits("member1", kFitsLabel);
  ASSERT_EQ(fits.result().status, 0) << fits.result().output;
  FederatedTestNamespace ns("scheduling", /*federate=*/true);
  std::string out;
  ASSERT_TRUE(applyYaml("host", pickyDeployment(ns.name(), "picky"), &out)) << out;
  ASSERT_TRUE(applyYaml("host", preference(ns.name(), "picky"), &out)) << out;

  // Weights 1:1 over 4: two each; member2's two cannot be scheduled.
  EXPECT_TRUE(waitFor(
      [&] {
        return memberReplicas("member1", ns.name(), "picky") == 2 &&
               memberReplicas("member2", ns.name(), "picky") == 2;
      },
      seconds(60)))
      << replicasSeen(ns.name(), "picky");

  // Once they have been unschedulable for longer than the window, member2's estimated capacity
  // is 0 and the RSP moves its replicas to member1, where they run.
  EXPECT_TRUE(waitFor(
      [&] {
        return memberReplicas("member1", ns.name(), "picky") == 4 &&
               memberReplicas("member2", ns.name(), "picky") == 0 &&
               readyReplicasIn("member1", ns.name(), "picky") == 4;
      },
      seconds(180)))
      << replicasSeen(ns.name(), "picky") << "\n"
      << kubectl("member2", "-n " + ns.name() + " get pods -o wide").output << controllerLogs();

  // And they stay there: the RSP is looked at again (it is rechecked while member2's estimate is
  // held) and changes nothing. KubeFed planned them back to member2 at once, every minute.
  const int64_t reconciles = leaderReconciles("schedulingpreferencecontroller");
  ASSERT_GE(reconciles, 0) << "no metrics from the leader";
  EXPECT_TRUE(
      waitFor([&] { return leaderReconciles("schedulingpreferencecontroller") >= reconciles + 2; },
              seconds(60)));
  EXPECT_EQ(memberReplicas("member1", ns.name(), "picky"), 4) << replicasSeen(ns.name(), "picky");
  EXPECT_EQ(memberReplicas("member2", ns.name(), "picky"), 0) << replicasSeen(ns.name(), "picky");
}

}  // namespace
}  // namespace kf::node
