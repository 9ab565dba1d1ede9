// The index of the workloads objects follow (workload_followers.h) on a fake host API server with
// real informers: idle (no request) until activated; then it finds the workloads referencing a
// follower and queues the follower when a workload starts or stops referencing it, or goes.

#include "sync/controller/workload_followers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "federation/client/resource_client.h"
#include "federation/controller/informer_source.h"
#include "federation/runtime/thread_annotations.h"
#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf::sync {
namespace {

const GroupVersionResource kIndexedDeployments{"types.kubefed.io", "v1beta1",
                                               "federateddeployments", true};

// Waits (in real time, generously) for what the informers' threads make true.
bool indexedSoon(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

class FollowerKeysTarget final : public EnqueueTarget {
 public:
  void enqueueAfter(const std::string& key, Duration) override {
    MutexLock lock(mu_);
    keys_.push_back(key);
  }
  std::size_t count(const std::string& key) const {
    MutexLock lock(mu_);
    return static_cast<std::size_t>(std::count(keys_.begin(), keys_.end(), key));
  }

 private:
  mutable Mutex mu_;
  std::vector<std::string> keys_ KF_GUARDED_BY(mu_);
};

// The discovery document of types.kubefed.io/v1beta1: a workload type and a type that is not.
HttpResponse federatedTypesDiscovery() {
  const Json list = {{"kind", "APIResourceList"},
                     {"groupVersion", "types.kubefed.io/v1beta1"},
                     {"resources",
                      {{{"name", "federateddeployments"},
                        {"kind", "FederatedDeployment"},
                        {"namespaced", true},
                        {"verbs", {"get", "list", "watch"}}},
                       {{"name", "federateddeployments/status"},
                        {"kind", "FederatedDeployment"},
                        {"namespaced", true},
                        {"verbs", {"get"}}},
                       {{"name", "federatedconfigmaps"},
                        {"kind", "FederatedConfigMap"},
                        {"namespaced", true},
                        {"verbs", {"get", "list", "watch"}}}}}};
  return HttpResponse{200, {{"content-type", "application/json"}}, list.dump()};
}

Json deploymentUsing(const std::string& name, const std::string& config_map) {
  return {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedDeployment"},
          {"metadata", {{"name", name}, {"namespace", "ns"}}},
          {"spec",
           {{"template",
             {{"spec",
               {{"template",
                 {{"spec",
                   {{"containers",
                     {{{"name", "c"},
                       {"envFrom", {{{"configMapRef", {{"name", config_map}}}}}}}}}}}}}}}}}}}};
}

std::vector<std::string> namesOf(const std::vector<CachedWorkload>& workloads) {
  std::vector<std::string> out;
  for (const CachedWorkload& workload : workloads) out.push_back(objectName(*workload.object));
  std::sort(out.begin(), out.end());
  return out;
}

class WorkloadFollowersTest : public ::testing::Test {
 protected:
  ~WorkloadFollowersTest() override { informers_.stopAll(); }

  test::FakeClock clock_;
  test::FakeApiServer host_{clock_};
  InformerManager informers_{[client = host_.client()](const InformerKey& key) {
                               return makeListerWatcher(client, key.resource, key.namespace_name,
                                                        key.label_selector, key.field_selector);
                             },
                             clock_};
  std::shared_ptr<WorkloadFollowers> followers_ = std::make_shared<WorkloadFollowers>(
      WorkloadFollowersOptions{.target_kind = "ConfigMap", .target_namespace = ""}, informers_,
      host_.client(), [](const std::string& key) { return key == "ns/cfg"; });
  FollowerKeysTarget target_;
};

// Verifies the index end to end: no request before activation, then the workloads referencing
// the follower, kept up to date, and the follower queued on each change that concerns it.
TEST_F(WorkloadFollowersTest, IndexesReferencingWorkloadsAndQueuesTheirFollowers) {
  host_.put(kIndexedDeployments, deploymentUsing("a", "cfg"));
  host_.put(kIndexedDeployments, deploymentUsing("b", "other"));
  SourcePtr source = followers_->source();
  source->start(target_, enqueueObject());
  EXPECT_TRUE(host_.requests().empty()) << "idle until an object follows";
  EXPECT_FALSE(followers_->synced());

  host_.respondNext(federatedTypesDiscovery());
  ASSERT_TRUE(followers_->activate()) << "discovery and lease";
  ASSERT_TRUE(indexedSoon([&] { return followers_->synced(); }));
  EXPECT_EQ(informers_.liveInformerCount(), 1U) << "the workload type only";
  EXPECT_EQ(namesOf(followers_->referencing("ns/cfg")), std::vector<std::string>{"a"});
  EXPECT_TRUE(indexedSoon([&] { return target_.count("ns/cfg") == 1; }));
  EXPECT_EQ(target_.count("ns/other"), 0U) << "not a follower: not queued";

  host_.put(kIndexedDeployments, deploymentUsing("b", "cfg"));  // starts referencing it
  ASSERT_TRUE(indexedSoon([&] { return followers_->referencing("ns/cfg").size() == 2; }));
  EXPECT_TRUE(indexedSoon([&] { return target_.count("ns/cfg") == 2; }));

  host_.put(kIndexedDeployments, deploymentUsing("a", "other"));  // stops referencing it
  ASSERT_TRUE(indexedSoon(
      [&] { return namesOf(followers_->referencing("ns/cfg")) == std::vector<std::string>{"b"}; }));
  EXPECT_TRUE(indexedSoon([&] { return target_.count("ns/cfg") == 3; }));

  host_.remove(kIndexedDeployments, "ns", "b");
  ASSERT_TRUE(indexedSoon([&] { return followers_->referencing("ns/cfg").empty(); }));
  EXPECT_TRUE(indexedSoon([&] { return target_.count("ns/cfg") == 4; }));
  source->stop();
  followers_.reset();
  EXPECT_EQ(informers_.liveInformerCount(), 0U) << "the lease goes with the index";
}

// Verifies that a failed discovery is an error that a later pass retries.
TEST_F(WorkloadFollowersTest, AFailedDiscoveryIsRetriedByTheNextActivation) {
  host_.failNext({.method = "GET", .path_contains = "/apis/types.kubefed.io"}, 503,
                 "ServiceUnavailable");
  EXPECT_FALSE(followers_->activate());
  host_.respondNext(federatedTypesDiscovery());
  EXPECT_TRUE(followers_->activate());
}

}  // namespace
}  // namespace kf::sync
