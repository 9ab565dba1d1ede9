// `helm install` of the chart never races the controller manager for the KubeFedConfig.
//
// Helm creates the kinds it knows first (Deployments among them), then custom resources: the
// chart's FederatedTypeConfigs, then its KubeFedConfig, come last. A controller manager that
// starts before Helm gets there finds no KubeFedConfig; were it to create a default one (KubeFed's
// behaviour without the chart), Helm's create would fail: `kubefedconfigs.core.kubefed.io
// "kubefed" already exists`. On an idle machine Helm gets there about 0.1 s after the Deployment
// and the pods start about a second later; a slow API server or a slow Helm (a loaded machine, an
// admission webhook on the chart's objects) loses the race. Here that is certain: an admission
// webhook holds Helm's FederatedTypeConfig creates until both controller-manager pods have passed
// their KubeFedConfig step, so a controller manager that creates the config fails every install.
// Installed several times in a row, uninstalled between; the last release stays for later tests.

#include <gtest/gtest.h>

#include <future>

#include "tests/integration/local_clusters.h"
#include "tests/node/control_plane.h"
#include "tests/node/held_admission.h"

namespace kf::node {
namespace {

constexpr int kInstalls = 3;

// Both controller managers have read (or created, or begun to wait for) their KubeFedConfig.
bool managersPassedTheirConfigStep() {
  const std::vector<std::string> pods = controllerPods();
  if (pods.size() != 2) return false;
  for (const std::string& pod : pods) {
    const CommandResult log = kubectl("host", std::string("-n ") + kNamespace + " logs " + pod);
    if (log.status != 0 || log.output.find("KubeFedConfig") == std::string::npos) return false;
  }
  return true;
}

bool everyManagerUsesItsConfig() {
  const std::vector<std::string> pods = controllerPods();
  if (pods.size() != 2) return false;
  for (const std::string& pod : pods) {
    const CommandResult log = kubectl("host", std::string("-n ") + kNamespace + " logs " + pod);
    if (log.output.find("Using valid KubeFedConfig") == std::string::npos) return false;
  }
  return true;
}

// A failed install leaves a release and, when the controller manager won, a KubeFedConfig that no
// release owns: both go, so that later tests install afresh.
void removeWhatAFailedInstallLeft() {
  uninstall();
  kubectl("host",
          std::string("-n ") + kNamespace + " delete kubefedconfig kubefed --ignore-not-found");
}

TEST(HelmInstallRaceTest, InstallsNeverRaceTheControllerManager) {
  if (helm(std::string("status ") + kRelease + " -n " + kNamespace).status == 0) uninstall();
  ASSERT_FALSE(getObject("host", "kubefedconfigs", "kubefed", kNamespace).is_object())
      << "a KubeFedConfig outlived helm uninstall";
  ASSERT_NO_FATAL_FAILURE(prepareNamespace());
  const std::string chart = integration::sourceDir() + "/charts/kubefed";
  for (int install = 1; install <= kInstalls; ++install) {
    SCOPED_TRACE("install " + std::to_string(install) + " of " + std::to_string(kInstalls));
    if (install > 1) uninstall();
    HeldAdmission held;
    ASSERT_NO_FATAL_FAILURE(held.hold("core.kubefed.io", "federatedtypeconfigs"));
    const int probes = held.held();
    auto installing = std::async(std::launch::async, [&] {
      return helm(std::string("install ") + kRelease + " '" + chart + "' -n " + kNamespace);
    });
    // Both sides at the point of the race: Helm held at its FederatedTypeConfigs (on a loaded
    // machine the pods can pass their step before Helm gets there) and the managers past their
    // KubeFedConfig step; under the webhook's 30 s timeout, after which the API server lets Helm
    // go on anyway.
    const bool passed =
        waitFor([&] { return held.held() > probes && managersPassedTheirConfigStep(); },
                std::chrono::seconds(25));
    const int helm_requests_held = held.held() - probes;
    held.release();
    const CommandResult installed = installing.get();
    EXPECT_TRUE(passed) << "the controller managers did not start while Helm was held:\n"
                        << kubectl("host", std::string("-n ") + kNamespace + " get pods").output;
    EXPECT_GT(helm_requests_held, 0) << "Helm's FederatedTypeConfig creates were not held";
    if (installed.status != 0) {
      ADD_FAILURE() << "helm install: " << installed.output << "\n" << controllerLogs();
      removeWhatAFailedInstallLeft();
      return;
    }
    const Json config = getObject("host", "kubefedconfigs", "kubefed", kNamespace);
    ASSERT_TRUE(config.is_object());
    EXPECT_EQ(config["metadata"]
                  .value("annotations", Json::object())
                  .value("meta.helm.sh/release-name", ""),
              kRelease)
        << "the KubeFedConfig is not the release's: " << config.dump();
    EXPECT_TRUE(waitFor(everyManagerUsesItsConfig, std::chrono::seconds(60))) << controllerLogs();
    const std::string logs = controllerLogs();
    // Every process prints its version line first: without it, no log was read at all.
    EXPECT_NE(logs.find("KubeFed controller-manager version"), std::string::npos) << logs;
    EXPECT_EQ(logs.find("Created KubeFedConfig"), std::string::npos) << logs;
  }
}

}  // namespace
}  // namespace kf::node
