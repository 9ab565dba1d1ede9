// `helm install ... --set global.scope=Namespaced`: the control plane federates and validates
// only the KubeFed namespace; objects elsewhere are neither propagated nor validated.

#include <gtest/gtest.h>

#include "tests/node/control_plane.h"
#include "tests/node/workload.h"

namespace kf::node {
namespace {

std::string invalidCluster(const std::string& ns) {
  return "apiVersion: core.kubefed.io/v1beta1\nkind: KubeFedCluster\nmetadata:\n  name: invalid\n"
         "  namespace: " +
         ns + "\nspec:\n  apiEndpoint: \"\"\n  secretRef:\n    name: none\n";
}

TEST(NamespacedScopeTest, OnlyTheKubefedNamespaceIsFederatedAndValidated) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kNamespaced));
  FederatedTestNamespace outside("outside", /*federate=*/false);
  std::string out;
  // created first, so that by the time the inside object has propagated, the controller had
  // every chance to act on this one
  ASSERT_TRUE(applyYaml("host", federatedConfigMap(outside.name(), "outside", "x"), &out)) << out;
  ASSERT_TRUE(applyYaml("host", federatedConfigMap(kNamespace, "inside", "hello-member2"), &out))
      << out;

  EXPECT_TRUE(waitFor([] { return memberGreeting("member1", kNamespace, "inside") == "hello"; },
                      std::chrono::seconds(60)));
  EXPECT_TRUE(
      waitFor([] { return memberGreeting("member2", kNamespace, "inside") == "hello-member2"; },
              std::chrono::seconds(60)));
  EXPECT_FALSE(getObject("member1", "namespaces", outside.name()).is_object());
  EXPECT_FALSE(getObject("member2", "namespaces", outside.name()).is_object());
  Json outside_object = getObject("host", "federatedconfigmaps", "outside", outside.name());
  ASSERT_TRUE(outside_object.is_object());
  EXPECT_FALSE(outside_object["metadata"].contains("finalizers"))
      << "the controller touched an object outside its namespace: " << outside_object.dump();

  const std::string logs = controllerLogs();
  // Every process prints its version line first: without it, no log was read at all.
  EXPECT_NE(logs.find("KubeFed controller-manager version"), std::string::npos) << logs;
  EXPECT_EQ(logs.find("orbidden"), std::string::npos) << logs;

  EXPECT_TRUE(applyYaml("host", invalidCluster(outside.name()), &out))
      << "validated outside the KubeFed namespace: " << out;
  EXPECT_FALSE(applyYaml("host", invalidCluster(kNamespace), &out)) << "not validated inside";
  EXPECT_NE(out.find("apiEndpoint: Required value"), std::string::npos) << out;
  kubectl("host",
          std::string("-n ") + kNamespace + " delete federatedconfigmap inside --wait=false");
}

}  // namespace
}  // namespace kf::node
