// Where the controller manager's KubeFedConfig comes from, and that it is validated as KubeFed
// validates it: as stored, before any defaulting, so a partial one is fatal.

#include "cmd/controller-manager/kubefed_config_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"
#include "tests/support/waiting.h"
#include "tests/unit/manager/complete_kubefed_config.h"

namespace kf::manager {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

Json configObject(const Json& spec) {
  return {{"apiVersion", "core.kubefed.io/v1beta1"},
          {"kind", "KubeFedConfig"},
          {"metadata", {{"name", "kubefed"}, {"namespace", "kube-federation-system"}}},
          {"spec", spec}};
}

class KubeFedConfigSourceTest : public ::testing::Test {
 protected:
  // The controller manager reading the object `kubefed` from the API, which holds `spec`.
  Result<core::KubeFedConfig> fromApi(const Json& spec) {
    server_.respondNext(test::textResponse(200, configObject(spec).dump()));
    return obtainKubeFedConfig(*host_, Options{}, "kube-federation-system", clock_, {});
  }

  test::FakeClock clock_;
  test::FakeApiServer server_{clock_};
  std::shared_ptr<RestClient> host_ = server_.client(RetryPolicy{});
};

TEST_F(KubeFedConfigSourceTest, UsesACompleteConfigAsItIs) {
  auto config = fromApi(Json::parse(test::kCompleteKubeFedConfigSpec));
  ASSERT_TRUE(config) << config.error().message;
  ASSERT_TRUE(config.value().spec.feature_gates.has_value());
  // Not defaulted: the gates it does not list stay unlisted (their defaults apply).
  EXPECT_EQ(config.value().spec.feature_gates->size(), 1u);
}

TEST_F(KubeFedConfigSourceTest, APartialConfigIsFatalInKubeFedsWords) {
  auto config = fromApi({{"scope", "Cluster"}, {"controllerDuration", {{"availableDelay", "1s"}}}});
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().reason, Reason::kInvalid);
  const std::string& message = config.error().message;
  EXPECT_THAT(message, StartsWith("invalid KubeFedConfig \"kube-federation-system/kubefed\": ["
                                  "spec.controllerDuration.unavailableDelay: Required value "));
  EXPECT_THAT(message, HasSubstr(" spec.leaderElect: Required value"));
  EXPECT_THAT(message, HasSubstr(" spec.statusController: Required value]"));
}

TEST_F(KubeFedConfigSourceTest, ASingleErrorIsStillPrintedAsAList) {
  Json spec = Json::parse(test::kCompleteKubeFedConfigSpec);
  spec["leaderElect"].erase("resourceLock");
  auto config = fromApi(spec);
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().message,
            "invalid KubeFedConfig \"kube-federation-system/kubefed\": "
            "[spec.leaderElect.resourceLock: Required value]");
}

TEST_F(KubeFedConfigSourceTest, APartialConfigFileIsFatalToo) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("kubefed-config-source-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << "apiVersion: core.kubefed.io/v1beta1\nkind: KubeFedConfig\n"
                         "metadata: {name: kubefed}\nspec: {scope: Namespaced}\n";
  Options options;
  options.kubefed_config = path.string();
  auto config = obtainKubeFedConfig(*host_, options, "kf", clock_, {});
  std::filesystem::remove(path);
  ASSERT_FALSE(config);
  EXPECT_THAT(config.error().message,
              StartsWith("invalid KubeFedConfig \"kf/kubefed\": [spec.controllerDuration: "
                         "Required value"));
  EXPECT_TRUE(server_.requests().empty());
}

// KubeFed's behaviour, kept without WAIT_FOR_KUBEFED_CONFIG: an absent config is created,
// defaulted, and used.
TEST_F(KubeFedConfigSourceTest, AnAbsentConfigIsCreated) {
  auto config = obtainKubeFedConfig(*host_, Options{}, "kf", clock_, {});
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ(config.value().spec.scope, "Cluster");
  EXPECT_EQ(server_.writes(), std::vector<std::string>{"ADDED kubefedconfigs/kf/kubefed"});
}

// With WAIT_FOR_KUBEFED_CONFIG (the chart's release creates the config, after the controller
// manager's Deployment) the controller manager creates nothing: a create of its own would make
// the release's fail with "already exists".
class AwaitedKubeFedConfigTest : public KubeFedConfigSourceTest {
 protected:
  AwaitedKubeFedConfigTest() { options_.wait_for_kubefed_config = true; }

  std::future<Result<core::KubeFedConfig>> obtainInBackground() {
    return std::async(std::launch::async, [this] {
      return obtainKubeFedConfig(*host_, options_, "kf", clock_, stop_.get_token());
    });
  }
  // The wait registers its timer before it blocks; bounded, so that a bug fails instead of hanging.
  bool waiting() {
    const auto deadline = std::chrono::steady_clock::now() + test::kHangLimit;
    while (clock_.pendingTimers() == 0) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::yield();
    }
    return true;
  }

  Options options_;
  std::stop_source stop_;
};

TEST_F(AwaitedKubeFedConfigTest, AnAbsentConfigIsWaitedForNeverCreated) {
  auto obtained = obtainInBackground();
  for (int poll = 0; poll < 3; ++poll) {
    ASSERT_TRUE(waiting());
    clock_.advance(kKubeFedConfigPollInterval);
  }
  ASSERT_TRUE(waiting());
  EXPECT_EQ(server_.writeRequests(), 0u) << "created a KubeFedConfig it was told to wait for";
  EXPECT_GE(
      server_.requestsTo("/apis/core.kubefed.io/v1beta1/namespaces/kf/kubefedconfigs/kubefed"), 4u)
      << "looked once, then at every poll";

  Json created = configObject(Json::parse(test::kCompleteKubeFedConfigSpec));
  created["metadata"]["namespace"] = "kf";
  created["spec"]["scope"] = "Namespaced";
  server_.put(kKubeFedConfigs, created);
  clock_.advance(kKubeFedConfigPollInterval);
  ASSERT_EQ(obtained.wait_for(test::kHangLimit), std::future_status::ready);
  auto config = obtained.get();
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ(config.value().spec.scope, "Namespaced") << "not the one it was waiting for";
  EXPECT_EQ(server_.writeRequests(), 0u);
}

TEST_F(AwaitedKubeFedConfigTest, AnExistingConfigIsUsedAtOnce) {
  Json existing = configObject(Json::parse(test::kCompleteKubeFedConfigSpec));
  existing["metadata"]["namespace"] = "kf";
  server_.put(kKubeFedConfigs, existing);
  auto config = obtainKubeFedConfig(*host_, options_, "kf", clock_, stop_.get_token());
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ(clock_.pendingTimers(), 0u);
  EXPECT_EQ(server_.writeRequests(), 0u);
}

TEST_F(AwaitedKubeFedConfigTest, AStopEndsTheWait) {
  auto obtained = obtainInBackground();
  ASSERT_TRUE(waiting());
  stop_.request_stop();
  ASSERT_EQ(obtained.wait_for(test::kHangLimit), std::future_status::ready);
  auto config = obtained.get();
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().reason, Reason::kCancelled);
  EXPECT_EQ(config.error().message, "stopped while waiting for KubeFedConfig \"kf/kubefed\"");
  EXPECT_EQ(server_.writeRequests(), 0u);
}

TEST_F(AwaitedKubeFedConfigTest, AnInvalidAwaitedConfigIsFatalAsAnyOther) {
  auto obtained = obtainInBackground();
  ASSERT_TRUE(waiting());
  Json partial = configObject({{"scope", "Cluster"}});
  partial["metadata"]["namespace"] = "kf";
  server_.put(kKubeFedConfigs, partial);
  clock_.advance(kKubeFedConfigPollInterval);
  ASSERT_EQ(obtained.wait_for(test::kHangLimit), std::future_status::ready);
  auto config = obtained.get();
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().reason, Reason::kInvalid);
}

}  // namespace
}  // namespace kf::manager
