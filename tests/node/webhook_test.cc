// The chart-installed admission webhook guards KubeFed's objects through the API server (a few
// cases; every rule is tested against the handlers themselves) and defaults KubeFedConfigs.

#include <gtest/gtest.h>

#include "tests/node/control_plane.h"
#include "tests/node/workload.h"

namespace kf::node {
namespace {

struct RejectedCase {
  std::string what;
  std::string yaml;
  std::string message;
};

TEST(WebhookTest, InvalidObjectsAreRejectedWithKubefedMessages) {
  if (!webhookBuilt()) GTEST_SKIP() << "no webhook binary in this build (cmd/webhook)";
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  const std::string ns = kNamespace;
  const std::vector<RejectedCase> cases = {
      {"FederatedTypeConfig named unlike its target",
       "apiVersion: core.kubefed.io/v1beta1\nkind: FederatedTypeConfig\nmetadata:\n  name: wrong\n"
       "  namespace: " +
           ns +
           "\nspec:\n  targetType: {version: v1, kind: ConfigMap, pluralName: "
           "configmaps, scope: Namespaced}\n  propagation: Enabled\n  federatedType: {group: "
           "types.kubefed.io, version: v1beta1, kind: FederatedConfigMap, pluralName: "
           "federatedconfigmaps, scope: Namespaced}\n",
       "name must be 'TARGET_PLURAL_NAME(.TARGET_GROUP_NAME)'"},
      {"KubeFedCluster without an API endpoint",
       "apiVersion: core.kubefed.io/v1beta1\nkind: KubeFedCluster\nmetadata:\n  name: invalid\n"
       "  namespace: " +
           ns + "\nspec:\n  apiEndpoint: \"\"\n  secretRef:\n    name: none\n",
       "apiEndpoint: Required value"},
      {"KubeFedConfig changing its scope",
       "apiVersion: core.kubefed.io/v1beta1\nkind: KubeFedConfig\nmetadata:\n  name: kubefed\n"
       "  namespace: " +
           ns + "\nspec:\n  scope: Namespaced\n",
       "field is immutable"},
  };
  for (const RejectedCase& rejected : cases) {
    std::string out;
    EXPECT_FALSE(applyYaml("host", rejected.yaml, &out)) << rejected.what << " was accepted";
    EXPECT_NE(out.find(rejected.message), std::string::npos) << rejected.what << ": " << out;
    EXPECT_NE(out.find("admission webhook"), std::string::npos) << rejected.what << ": " << out;
  }
}

TEST(WebhookTest, APartialKubefedConfigIsStoredDefaulted) {
  if (!webhookBuilt()) GTEST_SKIP() << "no webhook binary in this build (cmd/webhook)";
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  FederatedTestNamespace ns("defaulting", /*federate=*/false);
  std::string out;
  ASSERT_TRUE(applyYaml("host",
                        "apiVersion: core.kubefed.io/v1beta1\nkind: KubeFedConfig\nmetadata:\n"
                        "  name: partial\n  namespace: " +
                            ns.name() + "\nspec:\n  scope: Cluster\n",
                        &out))
      << out;
  Json stored = getObject("host", "kubefedconfigs", "partial", ns.name());
  ASSERT_TRUE(stored.is_object());
  EXPECT_EQ(stored["spec"]["controllerDuration"].value("availableDelay", ""), "20s")
      << stored.dump();
  EXPECT_EQ(stored["spec"]["leaderElect"].value("resourceLock", ""), "configmaps");
  EXPECT_EQ(stored["spec"]["syncController"].value("adoptResources", ""), "Enabled");
  EXPECT_EQ(stored["spec"].value("featureGates", Json::array()).size(), 3u);
}

}  // namespace
}  // namespace kf::node
