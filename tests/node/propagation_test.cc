// Federated objects propagate from the chart-installed controller manager, which runs in a pod
// under the chart's service account and RBAC, to both joined members, with overrides.

#include <gtest/gtest.h>

#include "tests/node/control_plane.h"
#include "tests/node/workload.h"

namespace kf::node {
namespace {

TEST(PropagationTest, NamespaceConfigMapAndDeploymentReachBothMembersWithOverrides) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  FederatedTestNamespace ns("propagation", /*federate=*/true);
  std::string out;
  ASSERT_TRUE(applyYaml("host", federatedConfigMap(ns.name(), "greeting", "hello-member2"), &out))
      << out;
  ASSERT_TRUE(applyYaml("host", federatedDeployment(ns.name(), "web"), &out)) << out;

  EXPECT_TRUE(waitFor([&] { return memberGreeting("member1", ns.name(), "greeting") == "hello"; },
                      std::chrono::seconds(60)));
  EXPECT_TRUE(
      waitFor([&] { return memberGreeting("member2", ns.name(), "greeting") == "hello-member2"; },
              std::chrono::seconds(60)));
  EXPECT_TRUE(waitFor([&] { return memberReplicas("member1", ns.name(), "web") == 1; },
                      std::chrono::seconds(60)));
  EXPECT_TRUE(waitFor([&] { return memberReplicas("member2", ns.name(), "web") == 3; },
                      std::chrono::seconds(60)));
  EXPECT_TRUE(getObject("member1", "namespaces", ns.name()).is_object());

  // The chart's RBAC is enough for all of it: the API server words an RBAC denial as `... is
  // forbidden: User "<service account>" cannot ...` (other 403s, such as a write into a namespace
  // an earlier test is deleting, are not about permissions).
  const std::string logs = controllerLogs();
  // Every process prints its version line first: without it, no log was read at all.
  EXPECT_NE(logs.find("KubeFed controller-manager version"), std::string::npos) << logs;
  EXPECT_EQ(logs.find("forbidden: User"), std::string::npos) << logs;
}

}  // namespace
}  // namespace kf::node
