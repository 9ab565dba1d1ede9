// `helm upgrade` with changed values reaches the running controller manager: the KubeFedConfig
// changes and the controller manager restarts with it (a feature gate's effect shows in its log).

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/node/control_plane.h"

namespace kf::node {
namespace {

std::string gate(const Json& config, const std::string& name) {
  for (const Json& entry : config["spec"].value("featureGates", Json::array())) {
    if (entry.value("name", "") == name) return entry.value("configuration", "");
  }
  return "";
}

bool restarted(const std::vector<std::string>& before) {
  const std::vector<std::string> now = controllerPods();
  return now.size() == 2 && std::none_of(now.begin(), now.end(), [&](const std::string& pod) {
           return std::find(before.begin(), before.end(), pod) != before.end();
         });
}

TEST(HelmUpgradeTest, ChangedValuesReachTheControllerManager) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  std::vector<std::string> before = controllerPods();
  ASSERT_NO_FATAL_FAILURE(
      upgrade("--set controllermanager.syncController.maxConcurrentReconciles=3 "
              "--set controllermanager.featureGates.PushReconciler=Disabled"));
  Json config = getObject("host", "kubefedconfigs", "kubefed", kNamespace);
  ASSERT_TRUE(config.is_object());
  EXPECT_EQ(config["spec"]["syncController"].value("maxConcurrentReconciles", 0), 3);
  EXPECT_EQ(gate(config, "PushReconciler"), "Disabled");
  EXPECT_TRUE(waitFor([&] { return restarted(before); }, std::chrono::seconds(90)));
  std::string leader;
  EXPECT_TRUE(waitFor([&] { return !(leader = leaderPod()).empty(); }, std::chrono::seconds(60)));
  const auto leaderLog = [&] {
    return kubectl("host", std::string("-n ") + kNamespace + " logs " + leader).output;
  };
  EXPECT_TRUE(
      waitFor([&] { return leaderLog().find("PushReconciler is disabled") != std::string::npos; },
              std::chrono::seconds(30)))
      << leaderLog();

  // back to the chart's defaults: the FederatedTypeConfig controller runs again
  before = controllerPods();
  ASSERT_NO_FATAL_FAILURE(upgrade("--reset-values"));
  config = getObject("host", "kubefedconfigs", "kubefed", kNamespace);
  EXPECT_EQ(config["spec"]["syncController"].value("maxConcurrentReconciles", 0), 1);
  EXPECT_EQ(gate(config, "PushReconciler"), "Enabled");
  EXPECT_TRUE(waitFor([&] { return restarted(before); }, std::chrono::seconds(90)));
  EXPECT_TRUE(waitFor([&] { return !(leader = leaderPod()).empty(); }, std::chrono::seconds(60)));
  EXPECT_TRUE(waitFor(
      [&] {
        return leaderLog().find("Starting FederatedTypeConfig controller") != std::string::npos;
      },
      std::chrono::seconds(30)))
      << leaderLog();
}

}  // namespace
}  // namespace kf::node
