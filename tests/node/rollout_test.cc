// Staged rollout (beyond KubeFed) with Pods that really run: the chart installed as users install
// it, member1 (stage first) and member2 (stage second) with a node each. An image tag that exists
// (the pause image tagged again on each member's node, never pulled) reaches member1 first, and
// member2 only once member1's Deployment is rolled out and the soak passed; a tag that does not
// exist fails member1's gate within the progress deadline, the run stops, member2 keeps the old
// image for a window, and `kubefedctl rollout undo` restores member1.
//
// The window is the 2 minutes by default; KF_ROLLOUT_HOLD_SECONDS shortens it (the test
// command sets a shorter one, so that CI pays less for it).

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tests/integration/local_clusters.h"
#include "tests/node/control_plane.h"
#include "tests/node/workload.h"

namespace kf::node {
namespace {

using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

constexpr const char* kOldImage = "localhost/kubefed-cpp/pause:1.0";
constexpr const char* kNewImage = "localhost/kubefed-cpp/pause:rollout-2";
constexpr const char* kMissingImage = "localhost/kubefed-cpp/pause:not-built-here";
constexpr const char* kStageLabel = "kubefed-cpp.test/rollout-stage";
constexpr auto kSoak = seconds(10);
constexpr auto kProgressDeadline = seconds(45);

seconds holdWindow() {
  const char* value = std::getenv("KF_ROLLOUT_HOLD_SECONDS");
  return seconds(value != nullptr && *value != '\0' ? std::atoi(value) : 120);
}

// Tags the imported pause image as `tag` in a member's node (containerd's own store: nothing is
// pulled); "" on success, else what ctr printed.
std::string tagImageOnNode(const std::string& member, const std::string& tag) {
  const char* run_dir = std::getenv("KF_RUN_DIR");
  if (run_dir == nullptr) return "KF_RUN_DIR is not set";
  int status = 0;
  const std::string output =
      integration::runCommand(std::string("ctr --address '") + run_dir + "/" + member +
                                  "/node/containerd.sock' --namespace k8s.io images tag --force " +
                                  kOldImage + " " + tag + " 2>&1",
                              &status);
  return status == 0 ? "" : output;
}

void labelStage(const std::string& member, const std::string& stage) {
  CommandResult labelled =
      kubectl("host", std::string("-n ") + kNamespace + " label kubefedcluster " + member + " " +
                          kStageLabel + "=" + stage + " --overwrite");
  ASSERT_EQ(labelled.status, 0) << labelled.output;
}

Json strategy(const std::string& ns) {
  auto stage = [](const char* name, const char* value, const std::string& soak) {
    return Json{{"name", name},
                {"clusterSelector", {{"matchLabels", {{kStageLabel, value}}}}},
                {"soakTime", soak}};
  };
  return {{"apiVersion", "rollout.kubefed-cpp.io/v1alpha1"},
          {"kind", "RolloutStrategy"},
          {"metadata", {{"name", "member1-first"}, {"namespace", ns}}},
          {"spec",
           {{"stages",
             {stage("first", "first", std::to_string(kSoak.count()) + "s"),
              stage("second", "second", "0s")}},
            {"progressDeadline", std::to_string(kProgressDeadline.count()) + "s"},
            {"onFailure", "Pause"}}}};
}

Json stagedDeployment(const std::string& ns, const std::string& image) {
  Json deployment = pauseDeployment(ns, "web");
  deployment["metadata"]["annotations"] = {{"kubefed-cpp.io/rollout-strategy", "member1-first"}};
  deployment["spec"]["template"]["spec"]["template"]["spec"]["containers"][0]["image"] = image;
  return deployment;
}

std::string memberImage(const std::string& member, const std::string& ns) {
  const Json deployment = getObject(member, "deployments", "web", ns);
  const Json* containers = nestedField(deployment, {"spec", "template", "spec", "containers"});
  return containers != nullptr && containers->is_array() && !containers->empty()
             ? (*containers)[0].value("image", "")
             : "";
}

// The member's Deployment runs `image` everywhere: observed, every replica updated and
// available, no old pods left.
bool memberRolledOut(const std::string& member, const std::string& ns, const std::string& image) {
  const Json deployment = getObject(member, "deployments", "web", ns);
  if (!deployment.is_object() || memberImage(member, ns) != image) return false;
  const Json status = deployment.value("status", Json::object());
  const int64_t desired = nestedField(deployment, {"spec", "replicas"}) != nullptr
                              ? deployment["spec"]["replicas"].get<int64_t>()
                              : 1;
  return status.value("observedGeneration", int64_t{0}) == objectGeneration(deployment) &&
         status.value("updatedReplicas", int64_t{-1}) == desired &&
         status.value("availableReplicas", int64_t{-1}) == desired &&
         status.value("replicas", int64_t{-1}) == desired;
}

std::string runPhase(const std::string& ns) {
  const Json run = getObject("host", "rolloutruns", "deployment-web", ns);
  const Json* phase = nestedField(run, {"status", "phase"});
  return phase != nullptr && phase->is_string() ? phase->get<std::string>() : "";
}

std::string rolloutStatus(const std::string& ns) {
  return kubefedctl("rollout status deployment/web -n " + ns).output;
}

TEST(RolloutNodeTest, StagesAGoodImageAndHoldsABadOneUntilUndo) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  for (const char* member : {"member1", "member2"}) {
    ASSERT_EQ(tagImageOnNode(member, kNewImage), "") << member;
  }
  ASSERT_NO_FATAL_FAILURE(labelStage("member1", "first"));
  ASSERT_NO_FATAL_FAILURE(labelStage("member2", "second"));
  FederatedTestNamespace ns("rollout", /*federate=*/true);
  std::string out;
  ASSERT_TRUE(applyYaml("host", strategy(ns.name()).dump(), &out)) << out;
  ASSERT_TRUE(applyYaml("host", stagedDeployment(ns.name(), kOldImage).dump(), &out)) << out;
  ASSERT_TRUE(waitFor(
      [&] {
        return memberRolledOut("member1", ns.name(), kOldImage) &&
               memberRolledOut("member2", ns.name(), kOldImage) &&
               runPhase(ns.name()) == "Complete";
      },
      seconds(120)))
      << runPhase(ns.name()) << "\n"
      << rolloutStatus(ns.name());

  // A tag that exists: member1 first, member2 after member1 rolled out and soaked.
  ASSERT_TRUE(applyYaml("host", stagedDeployment(ns.name(), kNewImage).dump(), &out)) << out;
  ASSERT_TRUE(waitFor([&] { return memberImage("member1", ns.name()) == kNewImage; }, seconds(60)))
      << rolloutStatus(ns.name());
  EXPECT_EQ(memberImage("member2", ns.name()), kOldImage) << "the second stage went first";
  ASSERT_TRUE(
      waitFor([&] { return memberRolledOut("member1", ns.name(), kNewImage); }, seconds(90)))
      << kubectl("member1", "-n " + ns.name() + " get pods -o wide").output;
  const auto member1_rolled_out = Clock::now();
  EXPECT_EQ(memberImage("member2", ns.name()), kOldImage) << "member2 went before member1's soak";
  const std::string soaking = rolloutStatus(ns.name());
  ASSERT_TRUE(waitFor([&] { return memberImage("member2", ns.name()) == kNewImage; }, seconds(90)))
      << rolloutStatus(ns.name());
  // Rolled out is seen here a little after the controller saw it: allow for that.
  EXPECT_GE(Clock::now() - member1_rolled_out, kSoak - seconds(3)) << soaking;
  EXPECT_NE(soaking.find("first"), std::string::npos) << soaking;
  ASSERT_TRUE(waitFor(
      [&] {
        return memberRolledOut("member2", ns.name(), kNewImage) &&
               runPhase(ns.name()) == "Complete";
      },
      seconds(90)))
      << rolloutStatus(ns.name());
  const std::string complete = rolloutStatus(ns.name());
  EXPECT_NE(complete.find("Phase:    Complete"), std::string::npos) << complete;

  // A tag that does not exist: member1's new pod never starts, its gate fails at the deadline.
  ASSERT_TRUE(applyYaml("host", stagedDeployment(ns.name(), kMissingImage).dump(), &out)) << out;
  const auto broken_at = Clock::now();
  ASSERT_TRUE(
      waitFor([&] { return memberImage("member1", ns.name()) == kMissingImage; }, seconds(60)));
  ASSERT_TRUE(
      waitFor([&] { return runPhase(ns.name()) == "Failed"; }, kProgressDeadline + seconds(60)))
      << rolloutStatus(ns.name());
  EXPECT_LE(Clock::now() - broken_at, kProgressDeadline + seconds(30));
  const int64_t member2_generation =
      objectGeneration(getObject("member2", "deployments", "web", ns.name()));
  EXPECT_FALSE(
      waitFor([&] { return memberImage("member2", ns.name()) != kNewImage; }, holdWindow()))
      << "the failed rollout reached member2";
  EXPECT_EQ(objectGeneration(getObject("member2", "deployments", "web", ns.name())),
            member2_generation);
  EXPECT_TRUE(memberRolledOut("member2", ns.name(), kNewImage));

  CommandResult undo = kubefedctl("rollout undo deployment/web -n " + ns.name());
  ASSERT_EQ(undo.status, 0) << undo.output;
  EXPECT_TRUE(
      waitFor([&] { return memberRolledOut("member1", ns.name(), kNewImage); }, seconds(90)))
      << rolloutStatus(ns.name());
  EXPECT_TRUE(waitFor([&] { return runPhase(ns.name()) == "Complete"; }, seconds(60)))
      << rolloutStatus(ns.name());
  EXPECT_EQ(memberImage("member2", ns.name()), kNewImage);
}

}  // namespace
}  // namespace kf::node
