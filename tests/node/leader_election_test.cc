// Deleting the leading controller-manager pod: the other replica takes over, and a federated
// object created right after still propagates.

#include <gtest/gtest.h>

#include "tests/node/control_plane.h"
#include "tests/node/workload.h"

namespace kf::node {
namespace {

TEST(LeaderElectionTest, TheOtherReplicaTakesOverWhenTheLeaderIsDeleted) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  const std::string leader = leaderPod();
  ASSERT_FALSE(leader.empty());
  const std::vector<std::string> before = controllerPods();
  std::string follower;
  for (const std::string& pod : before) {
    if (pod != leader) follower = pod;
  }
  ASSERT_FALSE(follower.empty()) << "only one controller-manager pod";

  CommandResult deleted =
      kubectl("host", std::string("-n ") + kNamespace + " delete pod " + leader + " --wait=false");
  ASSERT_EQ(deleted.status, 0) << deleted.output;
  // the follower is already trying, the replacement pod starts trying a little later: either may
  // win, but someone other than the deleted pod must lead
  EXPECT_TRUE(waitFor(
      [&] {
        const std::string now = leaderPod();
        return !now.empty() && now != leader;
      },
      std::chrono::seconds(60)))
      << "leader now: '" << leaderPod() << "'\n"
      << controllerLogs();

  FederatedTestNamespace ns("takeover", /*federate=*/true);
  std::string out;
  ASSERT_TRUE(applyYaml("host", federatedConfigMap(ns.name(), "after-takeover", "two"), &out))
      << out;
  EXPECT_TRUE(
      waitFor([&] { return memberGreeting("member1", ns.name(), "after-takeover") == "hello"; },
              std::chrono::seconds(60)))
      << controllerLogs();
  EXPECT_TRUE(
      waitFor([&] { return memberGreeting("member2", ns.name(), "after-takeover") == "two"; },
              std::chrono::seconds(60)));
}

}  // namespace
}  // namespace kf::node
