// ReplicaSchedulingPreference end to end: the controller-manager binary as a process, two members
// joined with `kubefedctl join`, namespaces and deployments.apps enabled, RSPs and
// FederatedDeployments written to the host, and the replicas the members' Deployments get read
// from the member API servers. The members have no node: their Deployments' pods stay Pending,
// so the replicas a member runs are Running+Ready pods the test writes itself.

#include <gtest/gtest.h>

#include <map>
#include <regex>

#include "federation/client/resource_client.h"
#include "tests/e2e/federation_fixture.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using std::chrono::seconds;

const GroupVersionResource kSchedulingPreferences{"scheduling.kubefed.io", "v1alpha1",
                                                  "replicaschedulingpreferences", true};
const GroupVersionResource kRspFederatedNamespaces{"types.kubefed.io", "v1beta1",
                                                   "federatednamespaces", true};
const GroupVersionResource kMemberPods{"", "v1", "pods", true};
const std::vector<std::string> kRspMembers = {"member1", "member2"};

// A federation of the suite's own: short delays, the controller manager as a process, both
// members joined, namespaces and deployments.apps enabled, a federated workload namespace.
class SchedulingFederation : public E2EFederation {
 public:
  SchedulingFederation() : E2EFederation({.prefix = "kf-e2e-rsp", .members = kRspMembers}) {
    EXPECT_EQ(ensureKubeFedCrds(), "");
    auto config = createKubeFedConfig();
    EXPECT_TRUE(config) << config.error().describe();
    EXPECT_TRUE(startManager("Starting scheduling manager")) << manager().log();
    EXPECT_EQ(joinMembers(), "");
    EXPECT_EQ(enableTypes({"namespaces", "deployments.apps"}), "");
    ResourceClient federated_namespaces(host(), kRspFederatedNamespaces, workNamespace());
    auto created = federated_namespaces.create(
        {{"apiVersion", "types.kubefed.io/v1beta1"},
         {"kind", "FederatedNamespace"},
         {"metadata", {{"name", workNamespace()}, {"namespace", workNamespace()}}},
         {"spec", {{"placement", {{"clusterSelector", Json::object()}}}}}});
    EXPECT_TRUE(created) << created.error().describe();
    for (const std::string& name : kRspMembers) {
      ResourceClient namespaces(member(name), kNamespaces);
      EXPECT_TRUE(eventually([&] { return static_cast<bool>(namespaces.get(workNamespace())); },
                             seconds(60)))
          << "namespace " << workNamespace() << " never reached " << name << "\n"
          << manager().log();
    }
  }
};

class SchedulingE2ETest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { federation_ = new SchedulingFederation(); }
  static void TearDownTestSuite() {
    delete federation_;
    federation_ = nullptr;
  }
  SchedulingFederation& fed() { return *federation_; }

  // A FederatedDeployment `name` (template replicas 1, placed nowhere until an RSP says).
  void createDeployment(const std::string& name) {
    const Json pod_template = {
        {"metadata", {{"labels", {{"app", name}}}}},
        {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox:1.36"}}}}}}};
    ResourceClient client(fed().host(), kFederatedDeployments, fed().workNamespace());
    auto created =
        client.create({{"apiVersion", "types.kubefed.io/v1beta1"},
                       {"kind", "FederatedDeployment"},
                       {"metadata", {{"name", name}, {"namespace", fed().workNamespace()}}},
                       {"spec",
                        {{"template",
                          {{"spec",
                            {{"replicas", 1},
                             {"selector", {{"matchLabels", {{"app", name}}}}},
                             {"template", pod_template}}}}},
                         {"placement", {{"clusters", Json::array()}}}}}});
    ASSERT_TRUE(created) << created.error().describe();
  }

  // Creates or replaces the RSP `name`.
  void putRsp(const std::string& name, const Json& spec) {
    ResourceClient client(fed().host(), kSchedulingPreferences, fed().workNamespace());
    Json object = {{"apiVersion", "scheduling.kubefed.io/v1alpha1"},
                   {"kind", "ReplicaSchedulingPreference"},
                   {"metadata", {{"name", name}, {"namespace", fed().workNamespace()}}},
                   {"spec", spec}};
    auto existing = client.get(name);
    if (existing) {
      object["metadata"]["resourceVersion"] = objectResourceVersion(existing.value());
      auto updated = client.update(object);
      ASSERT_TRUE(updated) << updated.error().describe();
    } else {
      auto created = client.create(object);
      ASSERT_TRUE(created) << created.error().describe();
    }
  }

  // spec.replicas of the member Deployment `name` per member ("-" when it has none).
  std::map<std::string, std::string> memberReplicas(const std::string& name) {
    std::map<std::string, std::string> out;
    for (const std::string& member : kRspMembers) {
      auto got =
          ResourceClient(fed().member(member), kDeployments, fed().workNamespace()).get(name);
      out[member] = got ? got.value()["spec"].value("replicas", Json(-1)).dump() : "-";
    }
    return out;
  }
  std::string describe(const std::map<std::string, std::string>& replicas) {
    std::string out;
    for (const auto& [member, value] : replicas) out += member + "=" + value + " ";
    return out;
  }
  // Waits until the members' Deployments have `expected` replicas.
  void expectMemberReplicas(const std::string& name,
                            const std::map<std::string, std::string>& expected) {
    EXPECT_TRUE(eventually([&] { return memberReplicas(name) == expected; }, seconds(60)))
        << "members: " << describe(memberReplicas(name)) << "expected: " << describe(expected)
        << "\n"
        << fed().manager().log().substr(0, 6000);
  }

  // `count` pods labeled app=`app` in `member` that report Running and Ready: the replicas the
  // member runs (no node runs the Deployment's own pods).
  void runPods(const std::string& member, const std::string& app, int count) {
    ResourceClient pods(fed().member(member), kMemberPods, fed().workNamespace());
    for (int i = 0; i < count; ++i) {
      auto created = pods.create(
          {{"apiVersion", "v1"},
           {"kind", "Pod"},
           {"metadata",
            {{"name", app + "-running-" + std::to_string(i)}, {"labels", {{"app", app}}}}},
           {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox:1.36"}}}}}}});
      ASSERT_TRUE(created) << created.error().describe();
      Json pod = created.value();
      pod["status"] = {{"phase", "Running"},
                       {"conditions", {{{"type", "Ready"}, {"status", "True"}}}}};
      auto updated = pods.updateStatus(pod);
      ASSERT_TRUE(updated) << updated.error().describe();
    }
  }

  // controller_runtime_reconcile_duration_seconds_count{controller="<controller>"}; 0 when
  // /metrics cannot be read or lacks it.
  long reconciles(const std::string& controller) {
    const std::string metrics = httpGet(servedPort(fed().manager(), "/metrics"), "/metrics");
    const std::regex pattern("controller_runtime_reconcile_duration_seconds_count\\{controller=\"" +
                             controller + "\"\\} ([0-9]+)");
    std::smatch count;
    return std::regex_search(metrics, count, pattern) ? std::stol(count[1].str()) : 0;
  }

 private:
  static SchedulingFederation* federation_;
};
SchedulingFederation* SchedulingE2ETest::federation_ = nullptr;

TEST_F(SchedulingE2ETest, ReplicasFollowWeightsMinMaxAndRebalance) {
  const std::string name = "web";
  createDeployment(name);
  putRsp(name, {{"targetKind", "FederatedDeployment"},
                {"totalReplicas", 9},
                {"clusters", {{"member1", {{"weight", 1}}}, {"member2", {{"weight", 2}}}}}});
  expectMemberReplicas(name, {{"member1", "3"}, {"member2", "6"}});

  // minReplicas is served first, maxReplicas caps the weighted share.
  putRsp(name, {{"targetKind", "FederatedDeployment"},
                {"totalReplicas", 12},
                {"clusters",
                 {{"member1", {{"minReplicas", 5}, {"weight", 1}}},
                  {"member2", {{"weight", 1}, {"maxReplicas", 3}}}}}});
  expectMemberReplicas(name, {{"member1", "9"}, {"member2", "3"}});

  // member2 runs 8: without rebalance they stay there, with rebalance they are spread evenly.
  runPods("member2", name, 8);
  putRsp(name, {{"targetKind", "FederatedDeployment"}, {"totalReplicas", 10}});
  expectMemberReplicas(name, {{"member1", "2"}, {"member2", "8"}});
  putRsp(name, {{"targetKind", "FederatedDeployment"}, {"totalReplicas", 10}, {"rebalance", true}});
  expectMemberReplicas(name, {{"member1", "5"}, {"member2", "5"}});
}

TEST_F(SchedulingE2ETest, RemovingTheRspLeavesTheLastPlacement) {
  const std::string name = "kept";
  createDeployment(name);
  putRsp(name, {{"targetKind", "FederatedDeployment"}, {"totalReplicas", 4}});
  expectMemberReplicas(name, {{"member1", "2"}, {"member2", "2"}});
  ASSERT_TRUE(
      ResourceClient(fed().host(), kSchedulingPreferences, fed().workNamespace()).remove(name));

  // An edit by hand sticks: the members follow it, and a reconcile of the RSP controller after
  // a later change of the object leaves it as edited.
  // (Read, edit and update again on a Conflict: the sync controller writes the status meanwhile.)
  ResourceClient federated(fed().host(), kFederatedDeployments, fed().workNamespace());
  Json edited;
  ASSERT_TRUE(eventually([&] {
    auto object = federated.get(name);
    if (!object) return false;
    edited = object.value();
    for (Json& entry : edited["spec"]["overrides"]) {
      if (entry["clusterName"] == "member1") entry["clusterOverrides"][0]["value"] = 1;
    }
    return static_cast<bool>(federated.update(edited));
  }));
  EXPECT_EQ(edited["spec"]["placement"]["clusters"],
            Json::parse(R"([{"name":"member1"},{"name":"member2"}])"));
  expectMemberReplicas(name, {{"member1", "1"}, {"member2", "2"}});
  const long before = reconciles("schedulingpreferencecontroller");
  // It reconciled the RSP before: 0 means no count was read, and any count would pass below.
  ASSERT_GT(before, 0) << "no reconcile count read from the controller manager";
  ASSERT_TRUE(
      federated.patch(name, PatchType::kMerge, R"({"metadata":{"labels":{"touched":"1"}}})"));
  EXPECT_TRUE(eventually([&] { return reconciles("schedulingpreferencecontroller") > before; },
                         seconds(30)));
  auto after = federated.get(name);
  ASSERT_TRUE(after);
  EXPECT_EQ(after.value()["spec"]["placement"], edited["spec"]["placement"]);
  EXPECT_EQ(after.value()["spec"]["overrides"], edited["spec"]["overrides"]);
  expectMemberReplicas(name, {{"member1", "1"}, {"member2", "2"}});
}

TEST_F(SchedulingE2ETest, DisablingPropagationStopsAndJoinsThePlugin) {
  ResourceClient ftcs(fed().host(), kTypeConfigs, fed().kubefedNamespace());
  auto setPropagation = [&](const char* value) {
    auto patched = ftcs.patch("deployments.apps", PatchType::kMerge,
                              std::string(R"({"spec":{"propagation":")") + value + "\"}}");
    ASSERT_TRUE(patched) << patched.error().describe();
  };
  setPropagation("Disabled");
  EXPECT_TRUE(fed().manager().waitForLog("Stopped scheduling plugin for FederatedDeployment"))
      << fed().manager().log();
  EXPECT_TRUE(fed().manager().waitForLog("Stopped ReplicaSchedulingPreference controller"))
      << fed().manager().log();
  // Enabled again, scheduling resumes.
  setPropagation("Enabled");
  const std::string name = "again";
  createDeployment(name);
  putRsp(name, {{"targetKind", "FederatedDeployment"},
                {"totalReplicas", 3},
                {"clusters", {{"member2", {{"weight", 1}}}}}});
  expectMemberReplicas(name, {{"member1", "0"}, {"member2", "3"}});
}

}  // namespace
}  // namespace kf::integration
