// `kubefedctl plan` end to end: with the controller manager stopped, a set of changes is made
// (template edit, override edit, placement change, a member object edited by hand, a member
// object deleted by hand); plan predicts the member writes; the controller manager then runs,
// and the writes the member API servers count must be exactly the predicted ones. After
// convergence plan reports no changes.

#include <gtest/gtest.h>

#include <map>
#include <optional>

#include "federation/client/resource_client.h"
#include "tests/e2e/federation_fixture.h"
#include "tests/e2e/kubefedctl_runner.h"
#include "tests/e2e/member_writes.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using std::chrono::seconds;

const std::vector<std::string> kPlanMembers = {"member1", "member2"};

// Object -> cluster -> action, for the clusters plan says would be written.
using Writes = std::map<std::string, std::map<std::string, std::string>>;

// The suite's federation: KubeFedConfig with short delays (and leases, as the controller manager
// is restarted), the controller manager as a process, member1 and member2 joined, namespaces and
// configmaps enabled, a workload namespace federated to both members.
E2EFederation* newPlanFederation() {
  auto* fed =
      new E2EFederation({.prefix = "kf-plan", .members = kPlanMembers, .manager_flags = {}});
  EXPECT_EQ(ensureKubeFedCrds(), "");
  auto config = fed->createKubeFedConfig(Json::parse(R"({
      "leaderElect": {"leaseDuration": "4s", "renewDeadline": "3s", "retryPeriod": "1s"}})"));
  EXPECT_TRUE(config) << config.error().describe();
  EXPECT_TRUE(fed->startManager()) << fed->manager().log();
  EXPECT_EQ(fed->joinMembers(), "");
  EXPECT_EQ(fed->enableTypes({"namespaces", "configmaps"}), "");
  const std::string& workload_ns = fed->workNamespace();
  auto federated_namespace =
      ResourceClient(fed->host(), {"types.kubefed.io", "v1beta1", "federatednamespaces", true},
                     workload_ns)
          .create(
              {{"apiVersion", "types.kubefed.io/v1beta1"},
               {"kind", "FederatedNamespace"},
               {"metadata", {{"name", workload_ns}, {"namespace", workload_ns}}},
               {"spec",
                {{"placement", {{"clusters", {{{"name", "member1"}}, {{"name", "member2"}}}}}}}}});
  EXPECT_TRUE(federated_namespace) << federated_namespace.error().describe();
  for (const auto& member : kPlanMembers) {
    ResourceClient namespaces(fed->member(member), kNamespaces);
    EXPECT_TRUE(
        eventually([&] { return static_cast<bool>(namespaces.get(workload_ns)); }, seconds(60)))
        << "namespace " << workload_ns << " never reached " << member << "\n"
        << fed->manager().log();
  }
  return fed;
}

class PlanE2ETest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { federation_ = newPlanFederation(); }
  static void TearDownTestSuite() {
    delete federation_;
    federation_ = nullptr;
  }
  E2EFederation& fed() { return *federation_; }

  RunResult plan(const std::string& name, const std::string& output = "json") {
    std::vector<std::string> args = {"plan", "federatedconfigmaps", name, "-n", workloadNs()};
    if (!output.empty()) args.insert(args.end(), {"-o", output});
    return fed().kubefedctl(args);
  }
  const std::string& workloadNs() { return fed().workNamespace(); }
  ResourceClient federatedConfigMaps() {
    return ResourceClient(fed().host(), kFederatedConfigMaps, workloadNs());
  }
  ResourceClient memberConfigMaps(const std::string& member) {
    return ResourceClient(fed().member(member), kConfigMaps, workloadNs());
  }
  void stopManager() { EXPECT_EQ(fed().stopManager().value_or(-1), 0) << fed().manager().log(); }
  void startManager() { EXPECT_TRUE(fed().startManager()) << fed().manager().log(); }
  std::string managerLog() {
    return fed().hasManager() ? fed().manager().log().substr(0, 4000) : "";
  }

 private:
  static inline E2EFederation* federation_ = nullptr;
};

// spec.overrides setting member1's data.key.
Json member1Override(const std::string& value) {
  Json override_entry = {{"path", "/data/key"}, {"value", value}};
  Json cluster_entry = {{"clusterName", "member1"},
                        {"clusterOverrides", Json::array({override_entry})}};
  return Json::array({cluster_entry});
}

Json federatedConfigMap(const std::string& name, const std::string& ns, const std::string& value,
                        const std::vector<std::string>& placed, const std::string& override) {
  Json clusters = Json::array();
  for (const auto& c : placed) clusters.push_back({{"name", c}});
  Json spec = {{"template", {{"data", {{"key", value}}}}}, {"placement", {{"clusters", clusters}}}};
  if (!override.empty()) spec["overrides"] = member1Override(override);
  return {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedConfigMap"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec", spec}};
}

Writes writesIn(const Json& plan) {
  Writes out;
  for (const auto& item : plan.at("items")) {
    for (const auto& cluster : item.at("clusters")) {
      const auto action = cluster.at("action").get<std::string>();
      if (action == "none") continue;
      out[item.at("name").get<std::string>()][cluster.at("name").get<std::string>()] = action;
    }
  }
  return out;
}

// Whether the object was propagated as it is now (Propagation condition of its generation).
bool propagatedAsIs(ResourceClient& federated, const std::string& name) {
  auto object = federated.get(name);
  if (!object) return false;
  const Json& status = object.value().value("status", Json::object());
  if (status.value("observedGeneration", 0) != object.value()["metadata"].value("generation", -1)) {
    return false;
  }
  for (const auto& condition : status.value("conditions", Json::array())) {
    if (condition.value("type", "") == "Propagation") return true;
  }
  return false;
}

// The member object's resourceVersion, "" when it does not exist.
std::string planVersionIn(ResourceClient member, const std::string& name) {
  auto object = member.get(name);
  return object ? objectResourceVersion(object.value()) : "";
}

using WritesByMember = std::map<std::string, std::map<std::string, long>>;

// nullopt when a member's metrics cannot be read.
std::optional<WritesByMember> planWritesByMember(E2EFederation& fed) {
  WritesByMember out;
  for (const auto& member : kPlanMembers) {
    auto writes = writesByVerbAndCode(fed.member(member), "configmaps");
    if (!writes) return std::nullopt;
    out[member] = std::move(*writes);
  }
  return out;
}

// The creates, updates and deletes (POST, PUT, DELETE) the members counted: the writes plan
// predicts. PATCHes are left out: a controller manager also takes the managed label off the
// member objects that earlier suites' federated objects left behind, and that is not plan's.
// -1 when a member's metrics cannot be read.
long planMemberWrites(E2EFederation& fed) {
  const auto by_member = planWritesByMember(fed);
  if (!by_member) return -1;
  long total = 0;
  for (const auto& [member, writes] : *by_member) {
    for (const auto& [verb_and_code, count] : writes) {
      const std::string verb = verb_and_code.substr(0, verb_and_code.find(' '));
      if (verb == "POST" || verb == "PUT" || verb == "DELETE") total += count;
    }
  }
  return total;
}

// Which writes each member received since `before`, and the events the controller recorded on
// the federated objects: what to read when the count is not the predicted one.
std::string explainWrites(E2EFederation& fed, WritesByMember& before) {
  std::string out;
  std::optional<WritesByMember> after = planWritesByMember(fed);
  if (!after) return "the members' metrics cannot be read";
  for (const auto& member : kPlanMembers) {
    out += member + ": " + writesAdded(before[member], (*after)[member]) + "\n";
  }
  auto events = ResourceClient(fed.host(), kEvents, fed.workNamespace()).listAll({});
  if (!events) return out + "events: " + events.error().describe();
  for (const auto& event : events.value().items) {
    out += event["involvedObject"].value("name", "") + " " + event.value("reason", "") + " x" +
           std::to_string(event.value("count", 1)) + ": " + event.value("message", "") + "\n";
  }
  return out;
}

// Verifies that plan's prediction for each kind of change is exactly what the controller then
// writes to the members, and that plan reports no changes after convergence.
TEST_F(PlanE2ETest, PredictsExactlyTheMemberWritesOfTheNextSync) {
  const std::string ns = workloadNs();
  ResourceClient federated = federatedConfigMaps();
  const std::vector<std::string> names = {"tmpl", "ovr", "place", "edit", "gone"};

  // 1. Five federated ConfigMaps, propagated; plan then has nothing to do.
  for (const auto& name : names) {
    const bool member1_only = name == "place";
    auto created = federated.create(federatedConfigMap(
        name, ns, "v1", member1_only ? std::vector<std::string>{"member1"} : kPlanMembers,
        name == "ovr" ? "m1" : ""));
    ASSERT_TRUE(created) << created.error().describe();
  }
  for (const auto& name : names) {
    EXPECT_TRUE(eventually([&] { return plan(name, "").exit_code == 0; }, seconds(90)))
        << name << "\n"
        << describe(plan(name, "")) << managerLog();
  }

  // 2. With the controller manager stopped, the changes. Earlier suites' federated objects go
  // first: the next controller manager would finish their deletion or put back their member
  // objects, writes to the members that this test would count as its own.
  stopManager();
  deleteFederatedObjectsOutside(fed().host(), ns);
  auto patch = [&](const std::string& name, const Json& merge) {
    auto patched = federated.patch(name, PatchType::kMerge, merge.dump());
    ASSERT_TRUE(patched) << patched.error().describe();
  };
  patch("tmpl", {{"spec", {{"template", {{"data", {{"key", "v2"}}}}}}}});
  patch("ovr", {{"spec", {{"overrides", member1Override("m1-new")}}}});
  patch("place", {{"spec", {{"placement", {{"clusters", {{{"name", "member2"}}}}}}}}});
  ASSERT_TRUE(memberConfigMaps("member1").patch("edit", PatchType::kMerge,
                                                R"({"data":{"key":"by hand"}})"));
  ASSERT_TRUE(memberConfigMaps("member1").remove("gone"));

  // 3. An unreachable member is reported for itself; the other is still planned.
  {
    struct Restart {
      ~Restart() { LocalClusters::get().script("start member2"); }
    } restart_member2;
    ASSERT_EQ(LocalClusters::get().script("stop member2"), 0);
    RunResult partial = plan("tmpl");
    EXPECT_EQ(partial.exit_code, 2) << describe(partial);
    Json parsed = Json::parse(partial.out, nullptr, false);
    ASSERT_FALSE(parsed.is_discarded()) << describe(partial);
    EXPECT_EQ(writesIn(parsed)["tmpl"],
              (std::map<std::string, std::string>{{"member1", "update"}, {"member2", "unknown"}}));
  }
  ASSERT_TRUE(eventually([&] { return static_cast<bool>(memberConfigMaps("member2").get("tmpl")); },
                         seconds(60)));

  // 4. The plans.
  Writes predicted;
  for (const auto& name : names) {
    RunResult planned = plan(name);
    EXPECT_EQ(planned.exit_code, 1) << describe(planned);
    Json parsed = Json::parse(planned.out, nullptr, false);
    ASSERT_FALSE(parsed.is_discarded()) << describe(planned);
    for (auto& [object, clusters] : writesIn(parsed)) predicted[object] = clusters;
  }
  const Writes expected = {{"tmpl", {{"member1", "update"}, {"member2", "update"}}},
                           {"ovr", {{"member1", "update"}, {"member2", "update"}}},
                           {"place", {{"member1", "delete"}, {"member2", "create"}}},
                           {"edit", {{"member1", "update"}}},
                           {"gone", {{"member1", "create"}}}};
  EXPECT_EQ(predicted, expected);

  // The text form shows the diff, live (-) to desired (+).
  RunResult text = plan("tmpl", "");
  EXPECT_EQ(text.exit_code, 1) << describe(text);
  EXPECT_NE(text.out.find("member1: update"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("-  key: v1\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("+  key: v2\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("2 member writes:"), std::string::npos) << text.out;

  // A file is planned as it would be after applying it, and is not applied.
  Json edited = federatedConfigMap("tmpl", ns, "v3", kPlanMembers, "");
  RunResult from_stdin = fed().kubefedctl({"plan", "-f", "-", "-o", "json"}, edited.dump());
  EXPECT_EQ(from_stdin.exit_code, 1) << describe(from_stdin);
  EXPECT_NE(from_stdin.out.find("+  key: v3"), std::string::npos) << from_stdin.out;

  // 5. The controller runs: the members receive exactly the predicted writes.
  std::map<std::string, std::map<std::string, std::string>> versions_before;
  for (const auto& member : kPlanMembers) {
    ResourceClient objects = memberConfigMaps(member);
    for (const auto& name : names) versions_before[name][member] = planVersionIn(objects, name);
  }
  std::optional<WritesByMember> writes_by_member_before = planWritesByMember(fed());
  ASSERT_TRUE(writes_by_member_before) << "the members' metrics cannot be read";
  const long writes_before = planMemberWrites(fed());
  ASSERT_GE(writes_before, 0);
  startManager();
  const long predicted_writes = 8;
  const bool written = eventually(
      [&] {
        for (const auto& name : names) {
          if (!propagatedAsIs(federated, name)) return false;
        }
        return !planVersionIn(memberConfigMaps("member2"), "place").empty() &&
               planVersionIn(memberConfigMaps("member1"), "place").empty() &&
               !planVersionIn(memberConfigMaps("member1"), "gone").empty() &&
               planMemberWrites(fed()) - writes_before >= predicted_writes;
      },
      seconds(90));
  EXPECT_TRUE(written) << managerLog();
  EXPECT_EQ(planMemberWrites(fed()) - writes_before, predicted_writes)
      << explainWrites(fed(), *writes_by_member_before);
  for (const auto& member : kPlanMembers) {
    ResourceClient objects = memberConfigMaps(member);
    for (const auto& name : names) {
      const std::string& before = versions_before[name][member];
      const std::string after = planVersionIn(objects, name);
      const auto action = expected.at(name).find(member);
      if (action == expected.at(name).end()) {
        EXPECT_EQ(after, before) << name << " in " << member << " was written unpredicted";
      } else if (action->second == "update" && !(name == "ovr" && member == "member2")) {
        // (ovr's member2 update rewrites unchanged content: the server keeps its version.)
        EXPECT_NE(after, before) << name << " in " << member << " was not updated";
      }
    }
  }
  auto value = [&](const std::string& member, const std::string& name) {
    auto object = memberConfigMaps(member).get(name);
    return object ? object.value()["data"].value("key", "") : "";
  };
  EXPECT_EQ(value("member1", "tmpl"), "v2");
  EXPECT_EQ(value("member1", "ovr"), "m1-new");
  EXPECT_EQ(value("member1", "edit"), "v1");

  // 6. Converged: no changes.
  for (const auto& name : names) {
    RunResult done = plan(name, "");
    EXPECT_EQ(done.exit_code, 0) << describe(done);
    EXPECT_NE(done.out.find("No changes."), std::string::npos) << done.out;
  }
}

// Verifies that plan's errors say what is wrong and exit above 1.
TEST_F(PlanE2ETest, ReportsBadInput) {
  RunResult missing = plan("no-such-object", "");
  EXPECT_EQ(missing.exit_code, 255) << describe(missing);
  EXPECT_NE(missing.err.find("not found on the host cluster"), std::string::npos) << missing.err;

  RunResult unknown_type = fed().kubefedctl({"plan", "nosuchthings", "x"});
  EXPECT_EQ(unknown_type.exit_code, 255) << describe(unknown_type);
  EXPECT_NE(unknown_type.err.find("unknown type \"nosuchthings\""), std::string::npos)
      << unknown_type.err;

  RunResult bad_yaml = fed().kubefedctl({"plan", "-f", "-"}, "kind: [unclosed\n");
  EXPECT_EQ(bad_yaml.exit_code, 255) << describe(bad_yaml);
  EXPECT_NE(bad_yaml.err.find("standard input"), std::string::npos) << bad_yaml.err;

  RunResult not_federated =
      fed().kubefedctl({"plan", "-f", "-"}, R"({"apiVersion":"v1","kind":"ConfigMap",
                                                "metadata":{"name":"x"}})");
  EXPECT_EQ(not_federated.exit_code, 255) << describe(not_federated);
  EXPECT_NE(not_federated.err.find("no FederatedTypeConfig"), std::string::npos)
      << not_federated.err;

  RunResult help = fed().kubefedctl({"plan", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("kubefedctl plan federateddeployments web -n shop"), std::string::npos)
      << help.out;
}

}  // namespace
}  // namespace kf::integration
