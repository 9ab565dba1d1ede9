// The status controllers in-process against real API servers, started the way the controller
// manager starts them: FederatedTypeConfigs in the host, the FTC controller with the assembly's
// factory (SyncTypeControllers), which runs the sync controller and beside it the legacy status
// controller (services) or the workload status controller (deployments). The cluster registry is
// filled by hand with member1 and member2, ready.
//
// Each test runs a namespace-scoped control plane limited to its own namespace.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "controllers/federatedtypeconfig/ftc_controller.h"
#include "controllers/manager/sync_type_controllers.h"
#include "federation/client/resource_client.h"
#include "federation/events/event_recorders.h"
#include "federation/metrics/kubefed_metrics.h"
#include "tests/integration/federated_types.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration::status_test {

const GroupVersionResource kServices{"", "v1", "services", true};
const GroupVersionResource kPods{"", "v1", "pods", true};
const GroupVersionResource kFederatedServices{"types.kubefed.io", "v1beta1", "federatedservices",
                                              true};
const GroupVersionResource kServiceStatuses{"core.kubefed.io", "v1alpha1",
                                            "federatedservicestatuses", true};
const std::vector<std::string> kMemberNames = {"member1", "member2"};

std::map<std::string, Json>& installedTypes() {
  static std::map<std::string, Json> types;
  return types;
}

// controller_runtime_reconcile_duration_seconds_count{controller="<label>"}.
long reconcileCount(const std::string& label) {
  std::istringstream text(metrics::renderPrometheusText());
  const std::string prefix =
      "controller_runtime_reconcile_duration_seconds_count{controller=\"" + label + "\"}";
  for (std::string line; std::getline(text, line);) {
    if (line.rfind(prefix, 0) == 0) return std::stol(line.substr(line.rfind(' ') + 1));
  }
  return 0;
}

class StatusControllersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    auto host = LocalClusters::get().client("host");
    for (const char* type : {"services", "deployments.apps", "namespaces"}) {
      if (installedTypes().contains(type)) continue;
      Result<Json> ftc = installFederatedType(*host, type);
      ASSERT_TRUE(ftc) << type << ": " << ftc.error().describe();
      installedTypes().emplace(type, std::move(ftc.value()));
    }
  }

  void SetUp() override {
    host_ = LocalClusters::get().client("host");
    namespace_ = std::make_unique<TestNamespace>(*host_, "status");
    for (const std::string& name : kMemberNames) {
      members_[name] = LocalClusters::get().client(name);
      auto created =
          ResourceClient(*members_[name], kNamespaces)
              .create(
                  {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns()}}}});
      ASSERT_TRUE(created) << created.error().describe();
      registry_.upsert({name, true, {}, nullptr}, members_[name]);
    }
    ControlPlaneConfig config;
    config.kubefed_namespace = ns();
    config.target_namespace = ns();
    config.namespaced_scope = true;
    config.cluster_available_delay = std::chrono::seconds(1);
    config.cluster_unavailable_delay = std::chrono::seconds(1);
    factory_ = std::make_unique<SyncTypeControllers>(
        SyncTypeControllers::Deps{.config = config,
                                  .host = shared_host_,
                                  .registry = registry_,
                                  .host_informers = host_informers_,
                                  .member_informers = member_informers_,
                                  .recorders = recorders_,
                                  .clock = realClock()});
    auto lease = host_informers_.acquire({"", kTypeConfigs, ns(), "", ""});
    ASSERT_TRUE(lease) << lease.error().describe();
    ftc_informer_ = std::move(lease.value());
    ftc_controller_ = std::make_unique<FtcController>(
        FtcControllerOptions{.kubefed_namespace = ns(), .scoped_control_plane = true},
        FtcControllerDeps{.host = *host_,
                          .factory = *factory_,
                          .events = *recorders_.forComponent("federatedtypeconfig-controller"),
                          .clock = realClock(),
                          .ftc_informer = ftc_informer_.informer()});
    ASSERT_TRUE(ftc_controller_->start());
  }

  void TearDown() override {
    if (ftc_controller_) ftc_controller_->stop();
    ftc_informer_.release();
    recorders_.stopAll();
    member_informers_.stopAll();
    host_informers_.stopAll();
    // Finalizers left behind would keep these objects (and so their CRDs) forever.
    for (const auto& resource : {kFederatedServices, kFederatedDeployments, kTypeConfigs}) {
      ResourceClient objects(*host_, resource, ns());
      auto listed = objects.list({});
      if (!listed) continue;
      for (const Json& object : listed.value().items) {
        (void)objects.patch(objectName(object), PatchType::kMerge,
                            R"({"metadata":{"finalizers":null}})");
        (void)objects.remove(objectName(object));
      }
    }
    for (const auto& [name, member] : members_) {
      (void)ResourceClient(*member, kNamespaces).remove(ns());
    }
  }

  const std::string& ns() const { return namespace_->name(); }

  // Creates the FTC `type` (as `kubefedctl enable` makes it) in the test's KubeFed namespace,
  // with `spec_patch` merged into its spec.
  void createTypeConfig(const std::string& type, const Json& spec_patch = Json::object()) {
    Json ftc = installedTypes().at(type);
    ftc["metadata"]["namespace"] = ns();
    ftc["spec"].merge_patch(spec_patch);
    auto created = ResourceClient(*host_, kTypeConfigs, ns()).create(ftc);
    ASSERT_TRUE(created) << created.error().describe();
  }

  Json get(RestClient& client, const GroupVersionResource& resource, const std::string& name) {
    auto found = ResourceClient(client, resource, ns()).get(name);
    return found ? found.value() : Json();
  }

  // "propagation=Running status=NotRunning", once the FTC's status is for its generation.
  std::string controllersOf(const std::string& ftc_name) {
    const Json ftc = get(*host_, kTypeConfigs, ftc_name);
    if (!ftc.is_object() || !ftc.contains("status")) return "no status";
    const Json& status = ftc["status"];
    if (status.value("observedGeneration", -1) != ftc["metadata"].value("generation", -2)) {
      return "stale";
    }
    return "propagation=" + status.value("propagationController", "") +
           " status=" + status.value("statusController", "");
  }
  void expectControllers(const std::string& ftc_name, const std::string& expected) {
    std::string last;
    EXPECT_TRUE(eventually([&] { return (last = controllersOf(ftc_name)) == expected; }))
        << ftc_name << ": expected \"" << expected << "\", last \"" << last << "\"";
  }

  std::unique_ptr<RestClient> host_;
  std::shared_ptr<RestClient> shared_host_ = LocalClusters::get().client("host");
  std::unique_ptr<TestNamespace> namespace_;
  std::map<std::string, std::shared_ptr<RestClient>> members_;
  ClusterRegistry registry_{realClock()};
  InformerManager host_informers_{[host = shared_host_](const InformerKey& key) {
                                    return makeListerWatcher(host, key.resource, key.namespace_name,
                                                             key.label_selector,
                                                             key.field_selector);
                                  },
                                  realClock()};
  InformerManager member_informers_{[this](const InformerKey& key) -> ListerWatcherPtr {
                                      auto client = registry_.client(key.cluster);
                                      if (!client) return nullptr;
                                      return makeListerWatcher(
                                          client.value(), key.resource, key.namespace_name,
                                          key.label_selector, key.field_selector);
                                    },
                                    realClock()};
  EventRecorders recorders_{*shared_host_, "", realClock()};
  std::unique_ptr<SyncTypeControllers> factory_;
  InformerLease ftc_informer_;
  std::unique_ptr<FtcController> ftc_controller_;
};

// "member1=<status json> member2=..." of a FederatedServiceStatus, or why there is none.
std::string clusterStatusSummary(const Json& status_object) {
  if (!status_object.is_object()) return "no status object";
  std::string out;
  for (const Json& entry : status_object.value("clusterStatus", Json::array())) {
    if (!out.empty()) out += " ";
    out += entry.value("clusterName", "") + "=" + entry.value("status", Json()).dump();
  }
  return out;
}

// Acceptance (issue 10): a Service federated with statusCollection Enabled gets a
// FederatedServiceStatus listing each ready member's Service status, owned by the federated
// object, and updated when a member's changes; turning statusCollection off stops the status
// controller while the sync controller keeps running.
TEST_F(StatusControllersTest, FederatedServiceStatusListsEachMemberAndFollowsItsChanges) {
  createTypeConfig("namespaces");
  createTypeConfig("services", Json::parse(R"({"statusCollection": "Enabled", "statusType": {
      "group": "core.kubefed.io", "version": "v1alpha1", "kind": "FederatedServiceStatus",
      "pluralName": "federatedservicestatuses", "scope": "Namespaced"}})"));
  expectControllers("services", "propagation=Running status=Running");

  Json service = Json::parse(R"({"apiVersion": "types.kubefed.io/v1beta1",
      "kind": "FederatedService", "metadata": {"name": "web"}, "spec": {
        "placement": {"clusters": [{"name": "member1"}, {"name": "member2"}]},
        "template": {"spec": {"type": "LoadBalancer", "selector": {"app": "web"},
          "ports": [{"port": 80, "protocol": "TCP"}]}}}})");
  service["metadata"]["namespace"] = ns();
  auto created = ResourceClient(*host_, kFederatedServices, ns()).create(service);
  ASSERT_TRUE(created) << created.error().describe();

  std::string last;
  ASSERT_TRUE(eventually([&] {
    last = clusterStatusSummary(get(*host_, kServiceStatuses, "web"));
    return last == R"(member1={"loadBalancer":{}} member2={"loadBalancer":{}})";
  })) << last;
  const Json status_object = get(*host_, kServiceStatuses, "web");
  ASSERT_EQ(status_object["metadata"]["ownerReferences"].size(), 1u);
  const Json& owner = status_object["metadata"]["ownerReferences"][0];
  EXPECT_EQ(owner["kind"], "FederatedService");
  EXPECT_EQ(owner["uid"], created.value()["metadata"]["uid"]);

  // A load balancer (were there one) reports its address on member1's Service.
  ResourceClient member1_services(*members_["member1"], kServices, ns());
  Json member_service = member1_services.get("web").value();
  member_service["status"]["loadBalancer"] = Json::parse(R"({"ingress": [{"ip": "192.0.2.10"}]})");
  auto updated = member1_services.updateStatus(member_service);
  ASSERT_TRUE(updated) << updated.error().describe();
  // KubeFed looks at a changed member object after its retry delay (10 s).
  ASSERT_TRUE(eventually(
      [&] {
        last = clusterStatusSummary(get(*host_, kServiceStatuses, "web"));
        return last.find(R"(member1={"loadBalancer":{"ingress":[{"ip":"192.0.2.10")") == 0 &&
               last.find(R"( member2={"loadBalancer":{}})") != std::string::npos;
      },
      std::chrono::seconds(45)))
      << last;

  auto patched =
      ResourceClient(*host_, kTypeConfigs, ns())
          .patch("services", PatchType::kMerge, R"({"spec":{"statusCollection":"Disabled"}})");
  ASSERT_TRUE(patched) << patched.error().describe();
  expectControllers("services", "propagation=Running status=NotRunning");
  EXPECT_EQ(ftc_controller_->runningStatusControllers(), std::vector<std::string>{});
  EXPECT_EQ(ftc_controller_->runningSyncControllers(), std::vector<std::string>{"services"});
}

// "member1 2/2 ready" style summary of a federated object's workload status and condition.
std::string workloadSummary(const Json& federated) {
  const Json* workload = nestedField(federated, {"status", "workload"});
  if (workload == nullptr) return "no workload status";
  std::string out = "available=" + std::to_string(workload->value("availableReplicas", -1)) + "/" +
                    std::to_string(workload->value("desiredReplicas", -1));
  for (const Json& condition : federated["status"].value("conditions", Json::array())) {
    if (condition.value("type", "") != "WorkloadReady") continue;
    out += " " + condition.value("status", "") + ":" + condition.value("reason", "");
    if (condition.contains("message")) out += " " + condition["message"].get<std::string>();
  }
  return out;
}

// Sets every pod of `app` in the member Running and Ready through the status subresource, as a
// kubelet would: the members have no node, their kube-controller-manager counts these pods.
void makePodsReady(RestClient& member, const std::string& ns, const std::string& app) {
  ResourceClient pods(member, kPods, ns);
  auto listed = pods.list({.label_selector = "app=" + app});
  ASSERT_TRUE(listed) << listed.error().describe();
  for (Json pod : listed.value().items) {
    pod["status"]["phase"] = "Running";
    pod["status"]["conditions"] = Json::parse(R"([
        {"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"},
        {"type": "ContainersReady", "status": "True",
         "lastTransitionTime": "2026-01-01T00:00:00Z"}])");
    auto updated = pods.updateStatus(pod);
    ASSERT_TRUE(updated) << objectName(pod) << ": " << updated.error().describe();
  }
}

// Beyond KubeFed (issue 10 item 3): a FederatedDeployment on two members reports per-cluster
// and total availability from the member Deployments' status (written by the members'
// kube-controller-manager from pods this test makes Ready), names the lagging cluster, becomes
// WorkloadReady when both rolled out, and is not written again while nothing changes.
TEST_F(StatusControllersTest, WorkloadStatusFollowsMemberDeploymentsAndNamesLaggingClusters) {
  if (LocalClusters::get().env("KF_WITH_KCM") != "1") {
    GTEST_SKIP() << "member Deployments get a status only from kube-controller-manager";
  }
  createTypeConfig("namespaces");
  createTypeConfig("deployments.apps");
  expectControllers("deployments.apps", "propagation=Running status=NotRunning");

  Json deployment = Json::parse(R"({"apiVersion": "types.kubefed.io/v1beta1",
      "kind": "FederatedDeployment", "metadata": {"name": "web"}, "spec": {
        "placement": {"clusters": [{"name": "member1"}, {"name": "member2"}]},
        "template": {"spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
          "template": {"metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "web", "image": "registry.invalid/web:1"}]}}}}}})");
  deployment["metadata"]["namespace"] = ns();
  ASSERT_TRUE(ResourceClient(*host_, kFederatedDeployments, ns()).create(deployment));

  std::string last;
  const auto expectWorkload = [&](const std::string& expected) {
    EXPECT_TRUE(eventually([&] {
      return (last = workloadSummary(get(*host_, kFederatedDeployments, "web"))) == expected;
    })) << "expected \""
        << expected << "\", last \"" << last << "\"";
  };
  expectWorkload(
      "available=0/4 False:NotRolledOut member1 (0/2 available), member2 (0/2 available)");

  makePodsReady(*members_["member1"], ns(), "web");
  expectWorkload("available=2/4 False:NotRolledOut member2 (0/2 available)");
  const Json federated = get(*host_, kFederatedDeployments, "web");
  const Json& clusters = federated["status"]["workload"]["clusters"];
  ASSERT_EQ(clusters.size(), 2u);
  EXPECT_EQ(clusters[0]["name"], "member1");
  EXPECT_EQ(clusters[0]["rolledOut"], true);
  EXPECT_EQ(clusters[0]["readyReplicas"], 2);
  EXPECT_EQ(clusters[1]["rolledOut"], false);

  makePodsReady(*members_["member2"], ns(), "web");
  expectWorkload("available=4/4 True:RolledOut");

  // A member change that does not change what is reported costs a reconcile, not a write.
  const std::string version = objectResourceVersion(get(*host_, kFederatedDeployments, "web"));
  ASSERT_FALSE(version.empty()) << "an unread version would equal an unread one below";
  const long reconciles = reconcileCount("workloadstatuscontroller");
  ResourceClient member_deployments(*members_["member1"], kDeployments, ns());
  ASSERT_TRUE(member_deployments.patch("web", PatchType::kMerge,
                                       R"({"metadata":{"labels":{"touched":"yes"}}})"));
  ASSERT_TRUE(eventually([&] { return reconcileCount("workloadstatuscontroller") > reconciles; }));
  EXPECT_EQ(objectResourceVersion(get(*host_, kFederatedDeployments, "web")), version);
}

}  // namespace kf::integration::status_test
