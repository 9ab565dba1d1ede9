// The chart-installed admission webhook guards KubeFed's objects through the API server (a few
// cases; every rule is tested against the handlers themselves).

#include <gtest/gtest.h>

#include "tests/node/control_plane.h"

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

}  // namespace
}  // namespace kf::node
