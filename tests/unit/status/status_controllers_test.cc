// The status controllers on the fake API server (a host and two members) with a fake clock and
// no delays: what they write, that they write nothing when nothing changed, and how they retry.

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <sstream>
#include <thread>

#include "federation/client/resource_client.h"
#include "federation/metrics/kubefed_metrics.h"
#include "status/service_status_controller.h"
#include "status/workload_status_controller.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf::status {
namespace {

using test::FakeApiServer;
using test::FakeClock;

const GroupVersionResource kServicesResource{"", "v1", "services", true};
const GroupVersionResource kDeploymentsResource{"apps", "v1", "deployments", true};
const GroupVersionResource kFederatedServicesResource{"types.kubefed.io", "v1beta1",
                                                      "federatedservices", true};
const GroupVersionResource kFederatedDeploymentsResource{"types.kubefed.io", "v1beta1",
                                                         "federateddeployments", true};
const GroupVersionResource kServiceStatusesResource{"core.kubefed.io", "v1alpha1",
                                                    "federatedservicestatuses", true};

bool waitUntil(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!condition() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  return condition();
}

long reconciles(const std::string& label) {
  std::istringstream text(metrics::renderPrometheusText());
  const std::string prefix =
      "controller_runtime_reconcile_duration_seconds_count{controller=\"" + label + "\"}";
  for (std::string line; std::getline(text, line);) {
    if (line.rfind(prefix, 0) == 0) return std::stol(line.substr(line.rfind(' ') + 1));
  }
  return 0;
}

core::FederatedTypeConfig typeConfigFrom(const char* json) {
  return core::FederatedTypeConfig::fromJson(Json::parse(json)).value();
}

core::FederatedTypeConfig servicesTypeConfig() {
  return typeConfigFrom(R"({"metadata": {"name": "services", "namespace": "kf"}, "spec": {
      "propagation": "Enabled", "statusCollection": "Enabled",
      "targetType": {"version": "v1", "kind": "Service", "pluralName": "services",
        "scope": "Namespaced"},
      "federatedType": {"group": "types.kubefed.io", "version": "v1beta1",
        "kind": "FederatedService", "pluralName": "federatedservices", "scope": "Namespaced"},
      "statusType": {"group": "core.kubefed.io", "version": "v1alpha1",
        "kind": "FederatedServiceStatus", "pluralName": "federatedservicestatuses",
        "scope": "Namespaced"}}})");
}

core::FederatedTypeConfig deploymentsTypeConfig() {
  return typeConfigFrom(R"({"metadata": {"name": "deployments.apps", "namespace": "kf"},
      "spec": {"propagation": "Enabled",
      "targetType": {"group": "apps", "version": "v1", "kind": "Deployment",
        "pluralName": "deployments", "scope": "Namespaced"},
      "federatedType": {"group": "types.kubefed.io", "version": "v1beta1",
        "kind": "FederatedDeployment", "pluralName": "federateddeployments",
        "scope": "Namespaced"}}})");
}

Json managed(Json object) {
  object["metadata"]["labels"]["kubefed.io/managed"] = "true";
  return object;
}

class StatusControllersUnitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    host_.enableStatusSubresource("federateddeployments");
    for (FakeApiServer* member : {&member1_, &member2_}) {
      member->enableStatusSubresource("services");
      member->enableStatusSubresource("deployments");
    }
    registry_.upsert({"member1", true, {}, nullptr}, member1_.client());
    registry_.upsert({"member2", true, {}, nullptr}, member2_.client());
  }

  StatusControllerDeps deps() {
    ControlPlaneConfig config;
    config.kubefed_namespace = "kf";
    config.cluster_available_delay = std::chrono::seconds(0);
    config.cluster_unavailable_delay = std::chrono::seconds(0);
    return StatusControllerDeps{.config = config,
                                .host = host_client_,
                                .clusters = registry_,
                                .host_informers = host_informers_,
                                .member_informers = member_informers_,
                                .clock = clock_,
                                .retry_delay = std::chrono::seconds(0),
                                .small_delay = std::chrono::seconds(0),
                                .workload_delay = std::chrono::seconds(0)};
  }

  std::optional<Json> statusObject() { return host_.get(kServiceStatusesResource, "ns", "web"); }

  FakeClock clock_;
  FakeApiServer host_{clock_};
  FakeApiServer member1_{clock_};
  FakeApiServer member2_{clock_};
  std::shared_ptr<RestClient> host_client_ = host_.client();
  ClusterRegistry registry_{clock_};
  InformerManager host_informers_{[client = host_client_](const InformerKey& key) {
                                    return makeListerWatcher(client, key.resource,
                                                             key.namespace_name, key.label_selector,
                                                             key.field_selector);
                                  },
                                  clock_};
  InformerManager member_informers_{[this](const InformerKey& key) -> ListerWatcherPtr {
                                      auto client = registry_.client(key.cluster);
                                      if (!client) return nullptr;
                                      return makeListerWatcher(
                                          client.value(), key.resource, key.namespace_name,
                                          key.label_selector, key.field_selector);
                                    },
                                    clock_};
};

Json managedMemberService(const Json& status) {
  return managed({{"apiVersion", "v1"},
                  {"kind", "Service"},
                  {"metadata", {{"name", "web"}, {"namespace", "ns"}}},
                  {"status", status}});
}

// Verifies the status object is created with every ready member's status, follows a member's
// change with one update, and is not written when a member event changes nothing it reports;
// a failed create is retried (NeedsRecheck) until it succeeds.
TEST_F(StatusControllersUnitTest, ServiceStatusIsCreatedUpdatedAndNotRewritten) {
  host_.put(kFederatedServicesResource,
            Json::parse(R"({"apiVersion": "types.kubefed.io/v1beta1", "kind": "FederatedService",
                "metadata": {"name": "web", "namespace": "ns"}})"));
  member1_.put(kServicesResource, managedMemberService({{"loadBalancer", Json::object()}}));
  member2_.put(kServicesResource, managedMemberService({{"loadBalancer", Json::object()}}));
  host_.failNext({.method = "POST", .path_contains = "/federatedservicestatuses"}, 500,
                 "InternalError");

  auto controller = serviceStatusController(servicesTypeConfig(), deps());
  ASSERT_TRUE(controller) << controller.error().describe();
  ASSERT_TRUE(controller.value()->start());
  ASSERT_TRUE(waitUntil([&] { return statusObject().has_value(); }));
  EXPECT_EQ((*statusObject())["clusterStatus"], Json::parse(R"([
      {"clusterName": "member1", "status": {"loadBalancer": {}}},
      {"clusterName": "member2", "status": {"loadBalancer": {}}}])"));
  EXPECT_EQ((*statusObject())["metadata"]["ownerReferences"][0]["kind"], "FederatedService");

  Json changed =
      managedMemberService(Json::parse(R"({"loadBalancer": {"ingress": [{"ip": "192.0.2.7"}]}})"));
  ResourceClient(*member2_.client(), kServicesResource, "ns")
      .updateStatus([&] {
        Json current = *member2_.get(kServicesResource, "ns", "web");
        current["status"] = changed["status"];
        return current;
      }())
      .value();
  ASSERT_TRUE(waitUntil(
      [&] { return (*statusObject())["clusterStatus"][1]["status"] == changed["status"]; }));

  const std::size_t writes = host_.writeCount();
  const long before = reconciles("statuscontroller");
  Json relabelled = *member1_.get(kServicesResource, "ns", "web");
  relabelled["metadata"]["labels"]["touched"] = "yes";
  member1_.put(kServicesResource, relabelled);
  ASSERT_TRUE(waitUntil([&] { return reconciles("statuscontroller") > before; }));
  EXPECT_EQ(host_.writeCount(), writes);
  controller.value()->stop();
}

Json memberDeployment(std::int64_t available) {
  Json object = managed(Json::parse(R"({"apiVersion": "apps/v1", "kind": "Deployment",
      "metadata": {"name": "web", "namespace": "ns", "generation": 1}, "spec": {"replicas": 2},
      "status": {"observedGeneration": 1, "replicas": 2, "readyReplicas": 2,
        "updatedReplicas": 2}})"));
  object["status"]["availableReplicas"] = available;
  return object;
}

// Verifies the workload status reaches the federated object through a status update that
// survives a conflict, names the lagging cluster, and follows a member that catches up.
TEST_F(StatusControllersUnitTest, WorkloadStatusIsWrittenThroughAConflictAndFollowsMembers) {
  host_.put(kFederatedDeploymentsResource, Json::parse(R"({"apiVersion": "types.kubefed.io/v1beta1",
                "kind": "FederatedDeployment", "metadata": {"name": "web", "namespace": "ns"},
                "status": {"clusters": [{"name": "member1"}, {"name": "member2"}]}})"));
  member1_.put(kDeploymentsResource, memberDeployment(2));
  member2_.put(kDeploymentsResource, memberDeployment(1));
  host_.failNext({.method = "PUT", .path_contains = "/status"}, 409, "Conflict");

  auto controller =
      workloadStatusController(deploymentsTypeConfig(), core::WorkloadKind::kDeployment, deps());
  ASSERT_TRUE(controller) << controller.error().describe();
  ASSERT_TRUE(controller.value()->start());
  const auto condition = [&]() -> Json {
    const Json object = *host_.get(kFederatedDeploymentsResource, "ns", "web");
    for (const Json& entry : object["status"].value("conditions", Json::array())) {
      if (entry.value("type", "") == "WorkloadReady") return entry;
    }
    return Json();
  };
  ASSERT_TRUE(waitUntil([&] { return condition().is_object(); }));
  EXPECT_EQ(condition()["message"], "member2 (1/2 available)");
  const Json object = *host_.get(kFederatedDeploymentsResource, "ns", "web");
  EXPECT_EQ(object["status"]["workload"]["availableReplicas"], 3);
  EXPECT_EQ(object["status"]["clusters"].size(), 2u);  // the sync controller's part is kept

  Json caught_up = *member2_.get(kDeploymentsResource, "ns", "web");
  caught_up["status"]["availableReplicas"] = 2;
  member2_.put(kDeploymentsResource, caught_up);
  ASSERT_TRUE(waitUntil([&] { return condition().value("status", "") == "True"; }));
  EXPECT_EQ(condition()["reason"], "RolledOut");
  controller.value()->stop();
}

}  // namespace
}  // namespace kf::status
