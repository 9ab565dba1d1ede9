// Drift policies end to end (kubefed-cpp.io/drift): the controller-manager binary, members joined
// with `kubefedctl join`, hand edits made with kubectl in a member, and what the host reports
// (DriftDetected events, status.clusters) and the members hold and were written, checked directly.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "federation/client/resource_client.h"
#include "federation/metrics/sample_parse.h"
#include "tests/e2e/federation_fixture.h"
#include "tests/e2e/member_writes.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

using std::chrono::seconds;

const GroupVersionResource kFederatedConfigMaps{"types.kubefed.io", "v1beta1",
                                                "federatedconfigmaps", true};
const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};
const GroupVersionResource kEvents{"", "v1", "events", true};
const GroupVersionResource kFederatedDeployments{"types.kubefed.io", "v1beta1",
                                                 "federateddeployments", true};
const GroupVersionResource kDeployments{"apps", "v1", "deployments", true};

std::string driftObjectName(const std::string& prefix) {
  static int counter = 0;
  return prefix + "-" + std::to_string(::getpid() % 10000) + "-" + std::to_string(++counter);
}

class DriftFederation : public E2EFederation {
 public:
  DriftFederation() : E2EFederation({.prefix = "kf-drift"}) {
    EXPECT_EQ(ensureKubeFedCrds(), "");
    auto config = createKubeFedConfig();
    EXPECT_TRUE(config) << config.error().describe();
    EXPECT_TRUE(startManager()) << manager().log();
    EXPECT_EQ(joinMembers(), "");
    EXPECT_EQ(enableTypes({"namespaces", "configmaps", "deployments.apps"}), "");
    Json federated_namespace = {
        {"apiVersion", "types.kubefed.io/v1beta1"},
        {"kind", "FederatedNamespace"},
        {"metadata", {{"name", workNamespace()}, {"namespace", workNamespace()}}},
        {"spec", {{"placement", {{"clusters", placementOf(memberNames())}}}}}};
    auto created =
        ResourceClient(host(), {"types.kubefed.io", "v1beta1", "federatednamespaces", true},
                       workNamespace())
            .create(federated_namespace);
    EXPECT_TRUE(created) << created.error().describe();
    for (const std::string& name : memberNames()) {
      EXPECT_TRUE(eventually(
          [&] {
            return static_cast<bool>(
                ResourceClient(member(name), kNamespaces).get(workNamespace()));
          },
          seconds(60)))
          << manager().log();
    }
  }

  static Json placementOf(const std::vector<std::string>& clusters) {
    Json out = Json::array();
    for (const auto& c : clusters) out.push_back({{"name", c}});
    return out;
  }

  // A FederatedConfigMap with data.key = `value`, the drift annotation when `mode` is not "".
  void createConfigMap(const std::string& name, const std::string& mode, const std::string& value,
                       const std::vector<std::string>& placed) {
    Json object = {{"apiVersion", "types.kubefed.io/v1beta1"},
                   {"kind", "FederatedConfigMap"},
                   {"metadata", {{"name", name}, {"namespace", workNamespace()}}},
                   {"spec",
                    {{"template", {{"data", {{"key", value}}}}},
                     {"placement", {{"clusters", placementOf(placed)}}}}}};
    if (!mode.empty()) object["metadata"]["annotations"]["kubefed-cpp.io/drift"] = mode;
    auto created = ResourceClient(host(), kFederatedConfigMaps, workNamespace()).create(object);
    ASSERT_TRUE(created) << created.error().describe();
  }

  // data.key of the member's ConfigMap; null when it cannot be read.
  Json memberValue(const std::string& cluster, const std::string& name) {
    auto got = ResourceClient(member(cluster), kConfigMaps, workNamespace()).get(name);
    if (!got || !got.value().contains("data")) return Json();
    return got.value()["data"].value("key", Json());
  }

  // An edit of data.key by hand, with kubectl (field manager kubectl-patch).
  void editByHand(const std::string& cluster, const std::string& name, const std::string& value) {
    std::string output;
    ASSERT_EQ(LocalClusters::get().kubectl(cluster,
                                           "-n " + workNamespace() + " patch configmap " + name +
                                               " -p '{\"data\":{\"key\":\"" + value + "\"}}'",
                                           &output),
              0)
        << output;
  }

  // A FederatedDeployment applied server-side (kubefed-cpp.io/apply: ServerSide).
  void createServerSideDeployment(const std::string& name, const std::string& image,
                                  const std::vector<std::string>& placed) {
    const Json pod_template = {{"metadata", {{"labels", {{"app", name}}}}},
                               {"spec", {{"containers", {{{"name", "c"}, {"image", image}}}}}}};
    Json object = {{"apiVersion", "types.kubefed.io/v1beta1"},
                   {"kind", "FederatedDeployment"},
                   {"metadata",
                    {{"name", name},
                     {"namespace", workNamespace()},
                     {"annotations", {{"kubefed-cpp.io/apply", "ServerSide"}}}}},
                   {"spec",
                    {{"template",
                      {{"spec",
                        {{"replicas", 2},
                         {"selector", {{"matchLabels", {{"app", name}}}}},
                         {"template", pod_template}}}}},
                     {"placement", {{"clusters", placementOf(placed)}}}}}};
    auto created = ResourceClient(host(), kFederatedDeployments, workNamespace()).create(object);
    ASSERT_TRUE(created) << created.error().describe();
  }

  // The member's Deployment; null when it cannot be read.
  Json memberDeployment(const std::string& cluster, const std::string& name) {
    auto got = ResourceClient(member(cluster), kDeployments, workNamespace()).get(name);
    return got ? got.value() : Json();
  }

  // Updates of existing `resource` objects (PUT, PATCH, APPLY of the objects themselves, not of
  // their status or scale subresources, which the member's own controllers and `kubectl scale`
  // write) that `cluster`'s API server counted; -1 when they cannot be read. Creates and deletes
  // are left out: a member namespace being deleted (those of earlier tests) counts a delete of
  // every resource in it, and nothing is created or deleted in a window of these tests.
  long updatesCounted(const std::string& cluster, const std::string& resource) {
    auto metrics = member(cluster).send({.path = "/metrics"});
    if (!metrics) return -1;
    long total = 0;
    for (const auto& sample :
         metrics::samplesNamed(metrics.value().body, "apiserver_request_total")) {
      const auto label = [&](const char* key) {
        const auto found = sample.labels.find(key);
        return found == sample.labels.end() ? std::string() : found->second;
      };
      const std::string verb = label("verb");
      const bool update = verb == "PUT" || verb == "PATCH" || verb == "APPLY";
      if (update && label("resource") == resource && label("subresource").empty() &&
          label("dry_run").empty()) {
        total += static_cast<long>(sample.value);
      }
    }
    return total;
  }

  // The DriftDetected events about the federated object: each one's message, repeated by count.
  std::vector<std::string> driftReports(const std::string& name) {
    return reports(name, "DriftDetected");
  }

  // The events of `reason` about the federated object: each one's message, repeated by count.
  std::vector<std::string> reports(const std::string& name, const std::string& reason) {
    ListOptions options;
    options.field_selector = "involvedObject.name=" + name + ",reason=" + reason;
    auto listed = ResourceClient(host(), kEvents, workNamespace()).list(options);
    std::vector<std::string> out;
    if (!listed) return out;
    for (const Json& event : listed.value().items) {
      for (int i = 0; i < event.value("count", 1); ++i) out.push_back(event.value("message", ""));
    }
    return out;
  }

  // "<True|False>[:reason] member1[=status] ..." of the federated object's status, when its
  // status describes its current generation; "" before.
  std::string summary(const std::string& name,
                      const GroupVersionResource& resource = kFederatedConfigMaps) {
    auto object = ResourceClient(host(), resource, workNamespace()).get(name);
    if (!object) return object.error().describe();
    const Json& status = object.value().value("status", Json::object());
    if (status.value("observedGeneration", 0) !=
        object.value()["metadata"].value("generation", -1)) {
      return "";
    }
    std::string out;
    for (const auto& c : status.value("conditions", Json::array())) {
      if (c.value("type", "") != "Propagation") continue;
      out = c.value("status", "");
      if (!c.value("reason", "").empty()) out += ":" + c.value("reason", "");
    }
    for (const auto& c : status.value("clusters", Json::array())) {
      out += " " + c.value("name", "") +
             (c.value("status", "").empty() ? "" : "=" + c.value("status", ""));
    }
    return out;
  }

  // Member objects of `resource` that earlier tests left labeled managed (their federated
  // objects and controller managers are gone) are orphans, which the controller manager releases
  // (a PATCH of the label) 10 s after it starts, KubeFed's delay: waits until no member holds
  // one outside this federation's namespace, so that a window of counted writes holds none.
  void awaitOrphansReleased(const GroupVersionResource& resource) {
    for (const std::string& cluster : memberNames()) {
      std::string others;
      EXPECT_TRUE(eventually(
          [&] {
            ListOptions managed;
            managed.label_selector = "kubefed.io/managed=true";
            auto listed = ResourceClient(member(cluster), resource).list(managed);
            if (!listed) return false;
            others.clear();
            for (const Json& item : listed.value().items) {
              if (objectNamespace(item) != workNamespace()) others += objectKey(item) + " ";
            }
            return others.empty();
          },
          seconds(40)))
          << cluster << " still holds managed " << resource.resource
          << " of other tests: " << others;
    }
  }
};

class DriftE2ETest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { federation_ = new DriftFederation(); }
  static void TearDownTestSuite() {
    delete federation_;
    federation_ = nullptr;
  }
  DriftFederation& fed() { return *federation_; }

 private:
  static inline DriftFederation* federation_ = nullptr;
};

bool mentionsAll(const std::string& text, const std::vector<std::string>& parts) {
  for (const auto& part : parts) {
    if (text.find(part) == std::string::npos) return false;
  }
  return true;
}

// How long a "stays as it is" window lasts: `fallback` (what CI runs), or KF_DRIFT_WINDOW_SECONDS
// when that is longer (the issue's 60 s and 5 minutes: `KF_DRIFT_WINDOW_SECONDS=300 ctest
// --preset asan -R DriftE2ETest`, by hand).
std::chrono::milliseconds windowOr(std::chrono::seconds fallback) {
  const char* configured = std::getenv("KF_DRIFT_WINDOW_SECONDS");
  const long wanted = configured != nullptr ? std::atol(configured) : 0;
  return std::max<std::chrono::milliseconds>(fallback, std::chrono::seconds(wanted));
}

// Whether `condition` holds at every look over `window`.
bool holdsFor(const std::function<bool()>& condition, std::chrono::milliseconds window) {
  const auto end = std::chrono::steady_clock::now() + window;
  bool broke = false;
  eventually(
      [&] {
        broke = !condition();
        return broke || std::chrono::steady_clock::now() >= end;
      },
      window + seconds(10));
  return !broke;
}

// The first report that names everything in `parts`, or "".
std::string reportNaming(const std::vector<std::string>& reports,
                         const std::vector<std::string>& parts) {
  for (const auto& report : reports) {
    if (mentionsAll(report, parts)) return report;
  }
  return "";
}

TEST_F(DriftE2ETest, ReportOnlyReportsAHandEditWithinSecondsAndLeavesItThroughARestart) {
  const std::string name = driftObjectName("drift-report-only");
  fed().createConfigMap(name, "ReportOnly", "wanted", {"member1", "member2"});
  ASSERT_TRUE(
      eventually([&] { return fed().summary(name) == "True member1 member2"; }, seconds(60)))
      << fed().summary(name) << "\n"
      << fed().manager().log();
  EXPECT_TRUE(fed().driftReports(name).empty()) << "a fresh propagation is not drift";

  fed().editByHand("member1", name, "edited");
  const auto edited_at = std::chrono::steady_clock::now();
  const std::vector<std::string> expected = {"\"member1\"", "/data/key", "\"edited\"", "\"wanted\"",
                                             "\"kubectl-patch\""};
  ASSERT_TRUE(eventually([&] { return !reportNaming(fed().driftReports(name), expected).empty(); },
                         seconds(5)))
      << "reports: " << ::testing::PrintToString(fed().driftReports(name))
      << "\nmember1: " << fed().memberValue("member1", name) << ", status: " << fed().summary(name)
      << "\n"
      << fed().manager().log();
  std::printf("DriftDetected %lld ms after the hand edit\n",
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                         std::chrono::steady_clock::now() - edited_at)
                                         .count()));
  EXPECT_TRUE(eventually(
      [&] { return fed().summary(name) == "False:CheckClusters member1=Drifted member2"; },
      seconds(10)))
      << fed().summary(name);

  // The window: a restart of the controller manager, whose first pass over the object finds it
  // drifted still (a report of its own), then 5 s more.
  fed().awaitOrphansReleased(kConfigMaps);
  const long writes_before = fed().updatesCounted("member1", "configmaps");
  ASSERT_GE(writes_before, 0);
  const std::size_t reports_before = fed().driftReports(name).size();
  EXPECT_EQ(fed().stopManager().value_or(-1), 0) << fed().manager().log();
  ASSERT_TRUE(fed().startManager()) << fed().manager().log();
  EXPECT_TRUE(
      eventually([&] { return fed().driftReports(name).size() > reports_before; }, seconds(30)))
      << fed().manager().log();
  // The restarted process counted its own report.
  const std::string metrics = httpGet(servedPort(fed().manager(), "/metrics"), "/metrics");
  double drift_count = 0;
  for (const auto& sample : metrics::samplesNamed(metrics, "kubefedcpp_drift_detected_total")) {
    if (sample.labels == std::map<std::string, std::string, std::less<>>{
                             {"cluster", "member1"}, {"type", "federatedconfigmap"}}) {
      drift_count = sample.value;
    }
  }
  EXPECT_GE(drift_count, 1) << metrics;
  EXPECT_TRUE(holdsFor(
      [&] {
        return fed().memberValue("member1", name) == "edited" &&
               fed().memberValue("member2", name) == "wanted";
      },
      windowOr(seconds(5))))
      << "member1: " << fed().memberValue("member1", name)
      << ", member2: " << fed().memberValue("member2", name);
  EXPECT_EQ(fed().memberValue("member1", name), "edited");
  EXPECT_EQ(fed().memberValue("member2", name), "wanted");
  EXPECT_EQ(fed().updatesCounted("member1", "configmaps") - writes_before, 0)
      << "ReportOnly wrote to the drifted member";
  EXPECT_EQ(fed().summary(name), "False:CheckClusters member1=Drifted member2");
}

TEST_F(DriftE2ETest, RevertPutsBackSilentlyAndReportAndRevertAlsoReports) {
  const std::string reverted = driftObjectName("drift-revert");
  const std::string reported = driftObjectName("drift-report-revert");
  fed().createConfigMap(reverted, "", "wanted", {"member1", "member2"});
  fed().createConfigMap(reported, "ReportAndRevert", "wanted", {"member1", "member2"});
  for (const auto& name : {reverted, reported}) {
    ASSERT_TRUE(
        eventually([&] { return fed().summary(name) == "True member1 member2"; }, seconds(60)))
        << fed().summary(name);
    fed().editByHand("member1", name, "edited");
  }
  for (const auto& name : {reverted, reported}) {
    EXPECT_TRUE(
        eventually([&] { return fed().memberValue("member1", name) == "wanted"; }, seconds(30)))
        << name << " was not put back\n"
        << fed().manager().log();
  }
  EXPECT_TRUE(eventually(
      [&] {
        return !reportNaming(
                    fed().driftReports(reported),
                    {"\"member1\"", "/data/key", "\"edited\"", "\"wanted\"", "\"kubectl-patch\""})
                    .empty();
      },
      seconds(5)))
      << ::testing::PrintToString(fed().driftReports(reported));
  EXPECT_TRUE(fed().driftReports(reverted).empty())
      << "Revert (KubeFed's) reports nothing: "
      << ::testing::PrintToString(fed().driftReports(reverted));
  EXPECT_EQ(fed().summary(reported), "True member1 member2");
}

TEST_F(DriftE2ETest, NoDriftAfterAMemberAPIServerRestartOrForANewlyJoinedCluster) {
  const std::string name = driftObjectName("drift-none");
  fed().createConfigMap(name, "ReportAndRevert", "wanted", {"member1", "member2"});
  ASSERT_TRUE(
      eventually([&] { return fed().summary(name) == "True member1 member2"; }, seconds(60)))
      << fed().summary(name);

  // A template change is propagated to every member: their objects differ from the new template,
  // but no version is recorded for it yet, so that is propagation, not drift.
  auto changed = ResourceClient(fed().host(), kFederatedConfigMaps, fed().workNamespace())
                     .patch(name, PatchType::kMerge,
                            R"({"spec":{"template":{"data":{"key":"wanted again"}}}})");
  ASSERT_TRUE(changed) << changed.error().describe();
  EXPECT_TRUE(eventually(
      [&] {
        return fed().memberValue("member1", name) == "wanted again" &&
               fed().memberValue("member2", name) == "wanted again" &&
               fed().summary(name) == "True member1 member2";
      },
      seconds(30)))
      << fed().summary(name);

  // member2's API server restarts: its objects keep their versions, nothing drifted.
  struct Restart {
    ~Restart() { LocalClusters::get().script("start member2"); }
  } restart_member2;
  ASSERT_EQ(LocalClusters::get().script("stop member2"), 0);
  EXPECT_TRUE(eventually(
      [&] { return fed().summary(name) == "False:CheckClusters member1 member2=ClusterNotReady"; },
      seconds(60)))
      << fed().summary(name);
  ASSERT_EQ(LocalClusters::get().script("start member2"), 0);
  EXPECT_TRUE(
      eventually([&] { return fed().summary(name) == "True member1 member2"; }, seconds(90)))
      << fed().summary(name);

  // member2 leaves and joins again: the object is propagated to it anew, which is not drift.
  const std::vector<std::string> member2 = {"--cluster-context", "member2", "--host-cluster-name",
                                            fed().kubefedNamespace()};
  auto unjoin = std::vector<std::string>{"unjoin", "member2", "--force"};
  unjoin.insert(unjoin.end(), member2.begin(), member2.end());
  const RunResult unjoined = fed().kubefedctl(unjoin);
  ASSERT_EQ(unjoined.exit_code, 0) << describe(unjoined);
  EXPECT_TRUE(eventually([&] { return fed().summary(name) == "True member1"; }, seconds(60)))
      << fed().summary(name);
  auto join = std::vector<std::string>{"join", "member2"};
  join.insert(join.end(), member2.begin(), member2.end());
  // The unjoin deletes the KubeFed namespace in member2: join refuses until it is gone.
  RunResult joined;
  EXPECT_TRUE(eventually(
      [&] {
        joined = fed().kubefedctl(join);
        return joined.exit_code == 0;
      },
      seconds(60)))
      << describe(joined);
  EXPECT_TRUE(
      eventually([&] { return fed().summary(name) == "True member1 member2"; }, seconds(60)))
      << fed().summary(name) << "\n"
      << fed().manager().log();
  EXPECT_EQ(fed().memberValue("member2", name), "wanted again");
  EXPECT_TRUE(fed().driftReports(name).empty())
      << ::testing::PrintToString(fed().driftReports(name));
}

std::string imageOf(const Json& deployment) {
  const Json::json_pointer image("/spec/template/spec/containers/0/image");
  return deployment.contains(image) ? deployment.at(image).get<std::string>() : "";
}

Json replicasOf(const Json& deployment) {
  const Json::json_pointer replicas("/spec/replicas");
  return deployment.contains(replicas) ? deployment.at(replicas) : Json();
}

// The issue asks for 0 writes over 5 minutes; what makes a write possible is a pass over the
// object, not time, so the window holds the passes that could write: the ones that the scale and
// the member's own status updates of the Deployment trigger (at once, since ServerSide looks at
// member changes without KubeFed's delay), a controller restart's pass over every object, and 10 s
// more.
TEST_F(DriftE2ETest, ServerSideApplyYieldsReplicasToAnotherManagerAndStillPropagatesTheImage) {
  const std::string name = driftObjectName("ssa");
  fed().createServerSideDeployment(name, "busybox:1.36", {"member1", "member2"});
  ASSERT_TRUE(eventually(
      [&] { return fed().summary(name, kFederatedDeployments) == "True member1 member2"; },
      seconds(60)))
      << fed().summary(name, kFederatedDeployments) << "\n"
      << fed().manager().log();
  ASSERT_EQ(replicasOf(fed().memberDeployment("member1", name)), 2);
  fed().awaitOrphansReleased(kDeployments);

  std::string output;
  ASSERT_EQ(
      LocalClusters::get().kubectl(
          "member1", "-n " + fed().workNamespace() + " scale deployment " + name + " --replicas=5",
          &output),
      0)
      << output;
  const std::vector<std::string> expected = {"\"member1\"", "/spec/replicas", "\"kubectl"};
  ASSERT_TRUE(eventually(
      [&] { return !reportNaming(fed().reports(name, "FieldOwnedElsewhere"), expected).empty(); },
      seconds(5)))
      << ::testing::PrintToString(fed().reports(name, "FieldOwnedElsewhere")) << "\n"
      << fed().manager().log();
  std::printf("%s\n", reportNaming(fed().reports(name, "FieldOwnedElsewhere"), expected).c_str());
  // In member2, the HPA's way: an update of the scale subresource as kube-controller-manager.
  const std::string scale_path =
      "/apis/apps/v1/namespaces/" + fed().workNamespace() + "/deployments/" + name + "/scale";
  auto scale = fed().member("member2").sendJson({.path = scale_path});
  ASSERT_TRUE(scale) << scale.error().describe();
  scale.value()["spec"]["replicas"] = 4;
  auto scaled =
      fed().member("member2").sendJson({.method = "PUT",
                                        .path = scale_path,
                                        .query = {{"fieldManager", "kube-controller-manager"}},
                                        .body = scale.value().dump()});
  ASSERT_TRUE(scaled) << scaled.error().describe();
  const std::vector<std::string> by_hpa = {"\"member2\"", "/spec/replicas",
                                           "\"kube-controller-manager\""};
  EXPECT_TRUE(eventually(
      [&] { return !reportNaming(fed().reports(name, "FieldOwnedElsewhere"), by_hpa).empty(); },
      seconds(5)))
      << ::testing::PrintToString(fed().reports(name, "FieldOwnedElsewhere"));

  // The members' own deployment controllers write each Deployment once more (the revision
  // annotation) and then only its status: the window starts once they caught up, so that every
  // write it counts is the federation controller's.
  for (const char* cluster : {"member1", "member2"}) {
    EXPECT_TRUE(eventually(
        [&] {
          const Json deployment = fed().memberDeployment(cluster, name);
          return deployment.is_object() &&
                 deployment["metadata"]
                     .value("annotations", Json::object())
                     .contains("deployment.kubernetes.io/revision") &&
                 deployment.value("status", Json::object()).value("observedGeneration", 0) ==
                     deployment["metadata"].value("generation", -1);
        },
        seconds(30)))
        << fed().memberDeployment(cluster, name).dump();
  }
  const auto by_verb_before = writesByVerbAndCode(fed().member("member1"), "deployments");
  const long writes_before = fed().updatesCounted("member1", "deployments");
  ASSERT_GE(writes_before, 0);
  const long member2_writes_before = fed().updatesCounted("member2", "deployments");
  ASSERT_GE(member2_writes_before, 0);
  const std::size_t reports_before = fed().reports(name, "FieldOwnedElsewhere").size();
  EXPECT_EQ(fed().stopManager().value_or(-1), 0) << fed().manager().log();
  ASSERT_TRUE(fed().startManager()) << fed().manager().log();
  EXPECT_TRUE(
      eventually([&] { return fed().reports(name, "FieldOwnedElsewhere").size() > reports_before; },
                 seconds(30)))
      << "the restarted controller manager never looked at the scaled member\n"
      << fed().manager().log();
  EXPECT_TRUE(holdsFor([&] { return replicasOf(fed().memberDeployment("member1", name)) == 5; },
                       windowOr(seconds(10))))
      << fed().memberDeployment("member1", name).dump();
  EXPECT_EQ(fed().updatesCounted("member1", "deployments") - writes_before, 0)
      << "the controller wrote to the scaled member: "
      << writesAdded(by_verb_before.value_or(std::map<std::string, long>()),
                     writesByVerbAndCode(fed().member("member1"), "deployments")
                         .value_or(std::map<std::string, long>()))
      << "\n"
      << fed().memberDeployment("member1", name)["metadata"].dump();
  EXPECT_EQ(replicasOf(fed().memberDeployment("member2", name)), 4);
  EXPECT_EQ(fed().updatesCounted("member2", "deployments") - member2_writes_before, 0)
      << "the controller wrote to the member the HPA's manager scaled";
  EXPECT_EQ(fed().summary(name, kFederatedDeployments), "True member1 member2");

  // A template change still reaches the member, without taking the replicas back.
  ResourceClient federated(fed().host(), kFederatedDeployments, fed().workNamespace());
  const auto changed_at = std::chrono::steady_clock::now();
  auto patched = federated.patch(
      name, PatchType::kMerge,
      R"({"spec":{"template":{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox:1.37"}]}}}}}})");
  ASSERT_TRUE(patched) << patched.error().describe();
  EXPECT_TRUE(
      eventually([&] { return imageOf(fed().memberDeployment("member1", name)) == "busybox:1.37"; },
                 seconds(10)))
      << fed().memberDeployment("member1", name).dump() << "\n"
      << fed().manager().log();
  std::printf("the new image reached the scaled member %lld ms after the template change\n",
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                         std::chrono::steady_clock::now() - changed_at)
                                         .count()));
  EXPECT_EQ(replicasOf(fed().memberDeployment("member1", name)), 5);
  EXPECT_TRUE(
      eventually([&] { return imageOf(fed().memberDeployment("member2", name)) == "busybox:1.37"; },
                 seconds(10)));
  EXPECT_EQ(replicasOf(fed().memberDeployment("member2", name)), 4);
  EXPECT_TRUE(fed().driftReports(name).empty())
      << ::testing::PrintToString(fed().driftReports(name));
}

}  // namespace
}  // namespace kf::integration
