// Deleting the FederatedTypeConfigs, then `helm uninstall`, leaves nothing of KubeFed but the
// CRDs (Helm never deletes what crds/ installed).

#include <gtest/gtest.h>

#include "tests/node/control_plane.h"

namespace kf::node {
namespace {

struct ChartObject {
  std::string resource, name, ns;
};

bool isWebhookConfiguration(const ChartObject& object) {
  return object.resource.find("webhookconfigurations") != std::string::npos;
}

TEST(HelmUninstallTest, LeavesNothingButTheCrds) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  const std::string ns = kNamespace;
  const std::vector<ChartObject> installed = {
      {"deployments", "kubefed-controller-manager", ns},
      {"deployments", "kubefed-admission-webhook", ns},
      {"services", "kubefed-admission-webhook", ns},
      {"services", "kubefed-controller-manager-metrics-service", ns},
      {"serviceaccounts", "kubefed-controller", ns},
      {"serviceaccounts", "kubefed-admission-webhook", ns},
      {"secrets", "kubefed-admission-webhook-serving-cert", ns},
      {"kubefedconfigs", "kubefed", ns},
      {"federatedtypeconfigs", "configmaps", ns},
      {"roles", "kubefed-config-role", ns},
      {"rolebindings", "kubefed-config-rolebinding", ns},
      {"clusterroles", "kubefed-role", ""},
      {"clusterrolebindings", "kubefed-rolebinding", ""},
      {"clusterroles", "kubefed-admin", ""},
      {"clusterroles", "kubefed-edit", ""},
      {"clusterroles", "kubefed-view", ""},
      {"validatingwebhookconfigurations", "validations.core.kubefed.io", ""},
      {"mutatingwebhookconfigurations", "mutation.core.kubefed.io", ""},
      {"kubefedclusters", "member1", ns},
  };
  // each is there before (so a wrong name or resource cannot pass below)
  for (const ChartObject& object : installed) {
    if (isWebhookConfiguration(object) && !webhookBuilt()) continue;
    EXPECT_TRUE(getObject("host", object.resource, object.name, object.ns).is_object())
        << object.resource << " " << object.name << " is not installed";
  }
  uninstall();
  for (const ChartObject& object : installed) {
    EXPECT_TRUE(waitFor(
        [&] { return !getObject("host", object.resource, object.name, object.ns).is_object(); },
        std::chrono::seconds(30)))
        << object.resource << " " << object.name << " is still there";
  }
  for (const std::string crd :
       {"federatedconfigmaps.types.kubefed.io", "federatedtypeconfigs.core.kubefed.io",
        "kubefedconfigs.core.kubefed.io", "federatedingresses.types.kubefed.io"}) {
    EXPECT_TRUE(getObject("host", "customresourcedefinitions", crd).is_object()) << crd;
  }
}

}  // namespace
}  // namespace kf::node
