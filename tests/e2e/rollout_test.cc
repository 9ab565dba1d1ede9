// Staged rollout end to end (RolloutStrategy, annotation kubefed-cpp.io/rollout-strategy): the
// controller-manager binary, two members joined with `kubefedctl join` and labelled into two
// stages (canary: member1; rest: member2), a FederatedDeployment whose template changes.
//
// How a workload is made healthy or not: the members run kube-controller-manager but no node.
// A Deployment with 0 replicas is rolled out as soon as its deployment controller observes it
// (observedGeneration caught up, 0 of 0 updated and available): healthy. One with 1 replica never
// gets an available pod: unhealthy, so it fails its stage at the progress deadline.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "federation/client/resource_client.h"
#include "tests/e2e/federation_fixture.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

const GroupVersionResource kFederatedDeploymentsRollout{"types.kubefed.io", "v1beta1",
                                                        "federateddeployments", true};
const GroupVersionResource kDeploymentsRollout{"apps", "v1", "deployments", true};
const GroupVersionResource kStrategies{"rollout.kubefed-cpp.io", "v1alpha1", "rolloutstrategies",
                                       true};
const GroupVersionResource kRuns{"rollout.kubefed-cpp.io", "v1alpha1", "rolloutruns", true};
const GroupVersionResource kClustersRollout{"core.kubefed.io", "v1beta1", "kubefedclusters", true};

constexpr auto kSoak = seconds(8);

class RolloutFederation : public E2EFederation {
 public:
  // `spare_host_member` (when given) names the host as a member that is not joined here: a
  // test joins it during a run.
  explicit RolloutFederation(const std::string& spare_host_member = "")
      : E2EFederation({.prefix = "kf-rollout", .host_member = spare_host_member}) {
    EXPECT_EQ(ensureKubeFedCrds(), "");
    std::string output;
    const std::string crds =
        sourceDir() + "/charts/kubefed/charts/controllermanager/crds/rollout.yaml";
    EXPECT_EQ(
        LocalClusters::get().kubectl("host", "apply --server-side -f '" + crds + "'", &output), 0)
        << output;
    EXPECT_EQ(
        LocalClusters::get().kubectl(
            "host", "wait --for condition=established --timeout=60s -f '" + crds + "'", &output),
        0)
        << output;
    auto config = createKubeFedConfig();
    EXPECT_TRUE(config) << config.error().describe();
    EXPECT_TRUE(startManager()) << manager().log();
    EXPECT_EQ(join("member1") + join("member2"), "");
    labelStage("member1", "canary");
    labelStage("member2", "rest");
    EXPECT_EQ(enableTypes({"namespaces", "deployments.apps"}), "");
    Json federated_namespace = {
        {"apiVersion", "types.kubefed.io/v1beta1"},
        {"kind", "FederatedNamespace"},
        {"metadata", {{"name", workNamespace()}, {"namespace", workNamespace()}}},
        {"spec", {{"placement", {{"clusterSelector", Json::object()}}}}}};
    auto created =
        ResourceClient(host(), {"types.kubefed.io", "v1beta1", "federatednamespaces", true},
                       workNamespace())
            .create(federated_namespace);
    EXPECT_TRUE(created) << created.error().describe();
  }

  void labelStage(const std::string& cluster, const std::string& stage) {
    auto patched = ResourceClient(host(), kClustersRollout, kubefedNamespace())
                       .patch(cluster, PatchType::kMerge,
                              Json{{"metadata", {{"labels", {{"stage", stage}}}}}}.dump());
    EXPECT_TRUE(patched) << patched.error().describe();
  }

  void createStrategy(const std::string& name, const std::string& on_failure,
                      bool rest_needs_approval = false) {
    const Json strategy = {{"apiVersion", "rollout.kubefed-cpp.io/v1alpha1"},
                           {"kind", "RolloutStrategy"},
                           {"metadata", {{"name", name}, {"namespace", workNamespace()}}},
                           {"spec",
                            {{"stages",
                              {{{"name", "canary"},
                                {"clusterSelector", {{"matchLabels", {{"stage", "canary"}}}}},
                                {"soakTime", std::to_string(kSoak.count()) + "s"}},
                               {{"name", "rest"},
                                {"clusterSelector", {{"matchLabels", {{"stage", "rest"}}}}},
                                {"requireApproval", rest_needs_approval}}}},
                             {"progressDeadline", "10s"},
                             {"onFailure", on_failure}}}};
    auto created = ResourceClient(host(), kStrategies, workNamespace()).create(strategy);
    ASSERT_TRUE(created) << created.error().describe();
  }

  static Json deploymentTemplate(const std::string& name, const std::string& image, int replicas) {
    return {{"spec",
             {{"replicas", replicas},
              {"selector", {{"matchLabels", {{"app", name}}}}},
              {"template",
               {{"metadata", {{"labels", {{"app", name}}}}},
                {"spec", {{"containers", {{{"name", "c"}, {"image", image}}}}}}}}}}};
  }

  void createDeployment(const std::string& name, const std::string& strategy) {
    const Json object = {{"apiVersion", "types.kubefed.io/v1beta1"},
                         {"kind", "FederatedDeployment"},
                         {"metadata",
                          {{"name", name},
                           {"namespace", workNamespace()},
                           {"annotations", {{"kubefed-cpp.io/rollout-strategy", strategy}}}}},
                         {"spec",
                          {{"template", deploymentTemplate(name, "img:v1", 0)},
                           {"placement", {{"clusterSelector", Json::object()}}}}}};
    auto created =
        ResourceClient(host(), kFederatedDeploymentsRollout, workNamespace()).create(object);
    ASSERT_TRUE(created) << created.error().describe();
  }

  void setTemplate(const std::string& name, const std::string& image, int replicas) {
    const Json patch = {{"spec", {{"template", deploymentTemplate(name, image, replicas)}}}};
    auto patched = ResourceClient(host(), kFederatedDeploymentsRollout, workNamespace())
                       .patch(name, PatchType::kMerge, patch.dump());
    ASSERT_TRUE(patched) << patched.error().describe();
  }

  // The image of the member's Deployment; "" when it cannot be read.
  std::string image(const std::string& cluster, const std::string& name) {
    auto got = ResourceClient(member(cluster), kDeploymentsRollout, workNamespace()).get(name);
    if (!got) return "";
    const Json* containers = nestedField(got.value(), {"spec", "template", "spec", "containers"});
    return containers != nullptr && containers->is_array() && !containers->empty()
               ? (*containers)[0].value("image", "")
               : "";
  }

  std::int64_t generation(const std::string& cluster, const std::string& name) {
    auto got = ResourceClient(member(cluster), kDeploymentsRollout, workNamespace()).get(name);
    return got ? objectGeneration(got.value()) : -1;
  }

  // status.rollout.phase of the federated object (the summary the sync controller mirrors from
  // the RolloutRun); "" while there is none.
  std::string summaryPhase(const std::string& name) {
    auto got = ResourceClient(host(), kFederatedDeploymentsRollout, workNamespace()).get(name);
    if (!got) return "";
    const Json* value = nestedField(got.value(), {"status", "rollout", "phase"});
    return value != nullptr && value->is_string() ? value->get<std::string>() : "";
  }

  // status.phase of the object's RolloutRun; "" while there is none.
  std::string phase(const std::string& name) {
    auto got = ResourceClient(host(), kRuns, workNamespace()).get("deployment-" + name);
    if (!got) return "";
    const Json* value = nestedField(got.value(), {"status", "phase"});
    return value != nullptr && value->is_string() ? value->get<std::string>() : "";
  }

  // What `kubefedctl rollout approve` is to write: the stage, for the run's template.
  void approve(const std::string& name, const std::string& stage) {
    auto run = ResourceClient(host(), kRuns, workNamespace()).get("deployment-" + name);
    ASSERT_TRUE(run) << run.error().describe();
    const std::string hash =
        nestedField(run.value(), {"status", "templateHash"})->get<std::string>();
    const Json patch = {
        {"metadata", {{"annotations", {{"kubefed-cpp.io/rollout-approved", stage + "@" + hash}}}}}};
    auto patched = ResourceClient(host(), kFederatedDeploymentsRollout, workNamespace())
                       .patch(name, PatchType::kMerge, patch.dump());
    ASSERT_TRUE(patched) << patched.error().describe();
  }

  // Every RolloutRun of the namespace, for failure messages.
  std::string runs() {
    auto got = ResourceClient(host(), kRuns, workNamespace()).list({});
    if (!got) return got.error().describe();
    Json items = Json::array();
    for (const Json& item : got.value().items) items.push_back(item);
    return items.dump(1);
  }

  // `kubefedctl rollout ARGS -n <work namespace>`.
  RunResult rollout(std::vector<std::string> args) {
    args.insert(args.begin(), "rollout");
    args.insert(args.end(), {"-n", workNamespace()});
    return kubefedctl(args);
  }

  bool imagesAre(const std::string& name, const std::string& first, const std::string& second) {
    return image("member1", name) == first && image("member2", name) == second;
  }
};

// The first template goes out at once; a change goes to the canary stage, waits until it is rolled
// out and soaked, then reaches the rest. A change that never becomes healthy fails the canary at
// its deadline, and the rest keeps the last good image; a change back (an undo) restores it.
TEST(RolloutE2ETest, StagesSoakPauseOnFailureAndUndo) {
  RolloutFederation federation;
  const std::string name = "web-" + std::to_string(::getpid() % 10000);
  federation.createStrategy("canary-first", "Pause");
  federation.createDeployment(name, "canary-first");
  ASSERT_TRUE(
      eventually([&] { return federation.imagesAre(name, "img:v1", "img:v1"); }, seconds(60)))
      << federation.manager().log();
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "Complete"; }, seconds(30)))
      << federation.runs();

  federation.setTemplate(name, "img:v2", 0);
  ASSERT_TRUE(
      eventually([&] { return federation.image("member1", name) == "img:v2"; }, seconds(30)))
      << federation.manager().log();
  const auto canary_updated = Clock::now();
  EXPECT_EQ(federation.image("member2", name), "img:v1") << "the rest stage went before the soak";
  ASSERT_TRUE(
      eventually([&] { return federation.image("member2", name) == "img:v2"; }, seconds(60)))
      << federation.manager().log();
  EXPECT_GE(Clock::now() - canary_updated, kSoak - seconds(2));
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "Complete"; }, seconds(30)));

  // 1 replica and no node: member1 never becomes available.
  federation.setTemplate(name, "img:broken", 1);
  ASSERT_TRUE(
      eventually([&] { return federation.image("member1", name) == "img:broken"; }, seconds(30)));
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "Failed"; }, seconds(40)))
      << federation.manager().log();
  const std::int64_t rest_generation = federation.generation("member2", name);
  EXPECT_FALSE(
      eventually([&] { return federation.image("member2", name) != "img:v2"; }, seconds(10)))
      << "a failed rollout reached the rest stage";
  EXPECT_EQ(federation.generation("member2", name), rest_generation);

  // Undo: the previous template back on the federated object.
  federation.setTemplate(name, "img:v2", 0);
  EXPECT_TRUE(
      eventually([&] { return federation.imagesAre(name, "img:v2", "img:v2"); }, seconds(60)))
      << federation.manager().log();
  EXPECT_TRUE(eventually([&] { return federation.phase(name) == "Complete"; }, seconds(60)));
}

// Manual approval holds the rest stage, across a restart of the controller manager that sends
// nothing again; a change that fails with onFailure: Rollback gets the previous template back.
TEST(RolloutE2ETest, ApprovalAcrossARestartAndRollback) {
  RolloutFederation federation;
  const std::string name = "api-" + std::to_string(::getpid() % 10000);
  federation.createStrategy("approved-rest", "Rollback", /*rest_needs_approval=*/true);
  federation.createDeployment(name, "approved-rest");
  ASSERT_TRUE(
      eventually([&] { return federation.imagesAre(name, "img:v1", "img:v1"); }, seconds(60)))
      << federation.manager().log();

  federation.setTemplate(name, "img:v2", 0);
  ASSERT_TRUE(
      eventually([&] { return federation.phase(name) == "WaitingForApproval"; }, seconds(60)))
      << federation.runs();
  EXPECT_EQ(federation.image("member1", name), "img:v2");
  EXPECT_EQ(federation.image("member2", name), "img:v1");

  const std::int64_t canary_generation = federation.generation("member1", name);
  const std::int64_t rest_generation = federation.generation("member2", name);
  ASSERT_EQ(federation.stopManager(), 0);
  ASSERT_TRUE(federation.startManager()) << federation.manager().log();
  EXPECT_FALSE(
      eventually([&] { return federation.phase(name) != "WaitingForApproval"; }, seconds(5)));
  EXPECT_EQ(federation.generation("member2", name), rest_generation);

  federation.approve(name, "rest");
  ASSERT_TRUE(
      eventually([&] { return federation.image("member2", name) == "img:v2"; }, seconds(30)))
      << federation.runs();
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "Complete"; }, seconds(30)));
  EXPECT_EQ(federation.generation("member1", name), canary_generation)
      << "the restarted controller wrote member1 again";

  federation.setTemplate(name, "img:broken", 1);
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "RolledBack"; }, seconds(60)))
      << federation.runs();
  EXPECT_TRUE(
      eventually([&] { return federation.imagesAre(name, "img:v2", "img:v2"); }, seconds(30)));
}

// Words of `text` with runs of spaces made one, so that a table row can be matched whatever the
// column widths.
std::string squeezed(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

// `kubefedctl rollout` drives a run: status shows the stages and clusters, pause holds an
// approved stage, resume lets it go, undo restores the last good template after a failure, and
// each command's bad input is refused with what to do.
TEST(RolloutE2ETest, KubefedctlRolloutStatusApprovePauseResumeUndo) {
  RolloutFederation federation;
  const std::string name = "cli-" + std::to_string(::getpid() % 10000);
  federation.createStrategy("cli-gated", "Pause", /*rest_needs_approval=*/true);
  federation.createDeployment(name, "cli-gated");
  federation.createDeployment("plain-" + name, "");
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "Complete"; }, seconds(60)))
      << federation.runs() << federation.manager().log();

  RunResult plain = federation.rollout({"status", "deployment/plain-" + name});
  EXPECT_NE(plain.exit_code, 0);
  EXPECT_NE(plain.err.find("is not under a rollout strategy"), std::string::npos)
      << describe(plain);
  RunResult missing = federation.rollout({"status", "federateddeployment/nosuch"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("not found"), std::string::npos) << describe(missing);
  RunResult nothing = federation.rollout({"undo", "deployment/" + name});
  EXPECT_NE(nothing.exit_code, 0);
  EXPECT_NE(nothing.err.find("nothing to undo"), std::string::npos) << describe(nothing);

  federation.setTemplate(name, "img:v2", 0);
  ASSERT_TRUE(
      eventually([&] { return federation.phase(name) == "WaitingForApproval"; }, seconds(60)))
      << federation.runs();
  RunResult status = federation.rollout({"status", "deployment/" + name});
  ASSERT_EQ(status.exit_code, 0) << describe(status);
  EXPECT_NE(status.out.find("Phase:    WaitingForApproval"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("Stage:    rest"), std::string::npos) << status.out;
  EXPECT_NE(squeezed(status.out).find("\ncanary member1 new yes 20"), std::string::npos)
      << status.out;
  EXPECT_NE(squeezed(status.out).find("\nrest member2 previous yes 20"), std::string::npos)
      << status.out;
  RunResult json = federation.rollout({"status", "federateddeployments/" + name, "-o", "json"});
  ASSERT_EQ(json.exit_code, 0) << describe(json);
  EXPECT_EQ(Json::parse(json.out).value("phase", ""), "WaitingForApproval") << json.out;
  RunResult yaml = federation.rollout({"status", "deployment/" + name, "-o", "yaml"});
  EXPECT_NE(yaml.out.find("phase: WaitingForApproval"), std::string::npos) << describe(yaml);

  RunResult unknown = federation.rollout({"approve", "deployment/" + name, "prod"});
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.err.find("unknown stage \"prod\": the strategy's stages are canary, rest"),
            std::string::npos)
      << describe(unknown);
  ASSERT_EQ(federation.rollout({"pause", "deployment/" + name}).exit_code, 0);
  RunResult approve = federation.rollout({"approve", "deployment/" + name});
  ASSERT_EQ(approve.exit_code, 0) << describe(approve);
  EXPECT_NE(approve.out.find("stage rest approved"), std::string::npos) << approve.out;
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "Paused"; }, seconds(30)))
      << federation.runs();
  EXPECT_EQ(federation.image("member2", name), "img:v1") << "a paused run updated a stage";

  ASSERT_EQ(federation.rollout({"resume", "deployment/" + name}).exit_code, 0);
  ASSERT_TRUE(
      eventually([&] { return federation.imagesAre(name, "img:v2", "img:v2"); }, seconds(30)))
      << federation.runs();
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "Complete"; }, seconds(30)));

  // 1 replica and no node: the canary fails at its deadline; undo restores it.
  federation.setTemplate(name, "img:broken", 1);
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "Failed"; }, seconds(60)))
      << federation.runs();
  RunResult failed = federation.rollout({"status", "deployment/" + name});
  EXPECT_NE(failed.out.find("Phase:    Failed"), std::string::npos) << describe(failed);
  RunResult undo = federation.rollout({"undo", "deployment/" + name});
  ASSERT_EQ(undo.exit_code, 0) << describe(undo);
  EXPECT_TRUE(
      eventually([&] { return federation.imagesAre(name, "img:v2", "img:v2"); }, seconds(60)))
      << federation.runs();
  EXPECT_TRUE(eventually([&] { return federation.phase(name) == "Complete"; }, seconds(60)));
}

// Clusters that join and leave during a run: the host joined as a member while the rest stage
// waits for approval is placed in that stage by its label and created with the previous
// template; member2, unjoined while its stage waits, does not stop the run, which completes on
// approval with the new template on the joined cluster. The federated object's status.rollout
// follows the run's phase.
TEST(RolloutE2ETest, JoinAndUnjoinDuringARun) {
  RolloutFederation federation("hostmember");
  const std::string name = "join-" + std::to_string(::getpid() % 10000);
  federation.createStrategy("join-gated", "Pause", /*rest_needs_approval=*/true);
  federation.createDeployment(name, "join-gated");
  ASSERT_TRUE(eventually([&] { return federation.phase(name) == "Complete"; }, seconds(60)))
      << federation.runs() << federation.manager().log();
  EXPECT_TRUE(eventually([&] { return federation.summaryPhase(name) == "Complete"; }, seconds(30)));

  federation.setTemplate(name, "img:v2", 0);
  ASSERT_TRUE(
      eventually([&] { return federation.phase(name) == "WaitingForApproval"; }, seconds(60)))
      << federation.runs();
  EXPECT_TRUE(eventually([&] { return federation.summaryPhase(name) == "WaitingForApproval"; },
                         seconds(30)));

  ASSERT_EQ(federation.join("hostmember"), "");
  federation.labelStage("hostmember", "rest");
  ASSERT_TRUE(
      eventually([&] { return federation.image("hostmember", name) == "img:v1"; }, seconds(60)))
      << federation.runs() << federation.manager().log();
  ASSERT_EQ(federation.unjoin("member2"), "");

  EXPECT_FALSE(
      eventually([&] { return federation.image("hostmember", name) != "img:v1"; }, seconds(5)))
      << "the joined cluster got the new template before its stage was approved";
  EXPECT_EQ(federation.phase(name), "WaitingForApproval") << federation.runs();
  federation.approve(name, "rest");
  ASSERT_TRUE(
      eventually([&] { return federation.image("hostmember", name) == "img:v2"; }, seconds(60)))
      << federation.runs();
  EXPECT_TRUE(eventually([&] { return federation.phase(name) == "Complete"; }, seconds(30)))
      << federation.runs();
  EXPECT_TRUE(eventually([&] { return federation.summaryPhase(name) == "Complete"; }, seconds(30)));
  EXPECT_EQ(federation.image("member1", name), "img:v2");
}

}  // namespace
}  // namespace kf::integration
