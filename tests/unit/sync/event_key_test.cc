#include "sync/plan/event_key.h"

#include <gtest/gtest.h>

namespace kf::sync {
namespace {

// Verifies key formatting and parsing.
TEST(QualifiedNameTest, KeyRoundTrip) {
  EXPECT_EQ((QualifiedName{"ns", "a"}).key(), "ns/a");
  EXPECT_EQ((QualifiedName{"", "a"}).key(), "a");
  EXPECT_EQ(QualifiedName::fromKey("ns/a"), (QualifiedName{"ns", "a"}));
  EXPECT_EQ(QualifiedName::fromKey("a"), (QualifiedName{"", "a"}));
}

// Verifies that for ordinary types the event key is both target and federated name.
TEST(EventKeyTest, OrdinaryTypesUseTheKeyAsIs) {
  const auto resolved = resolveEventKey("prod/web", false, "kube-federation-system");
  ASSERT_TRUE(resolved);
  EXPECT_EQ(resolved->target, (QualifiedName{"prod", "web"}));
  EXPECT_EQ(resolved->federated, (QualifiedName{"prod", "web"}));
  EXPECT_TRUE(resolved->possible_orphan);
  // Only the namespaces type ignores system namespaces.
  EXPECT_TRUE(resolveEventKey("kube-system/cm", false, "kube-federation-system"));
}

// Verifies the namespaces type: "X" <-> "X/X", FederatedNamespace events are no orphans.
TEST(EventKeyTest, NamespaceTargets) {
  const auto from_namespace = resolveEventKey("team", true, "kube-federation-system");
  ASSERT_TRUE(from_namespace);
  EXPECT_EQ(from_namespace->target, (QualifiedName{"", "team"}));
  EXPECT_EQ(from_namespace->federated, (QualifiedName{"team", "team"}));
  EXPECT_TRUE(from_namespace->possible_orphan);
  const auto from_federated = resolveEventKey("team/team", true, "kube-federation-system");
  ASSERT_TRUE(from_federated);
  EXPECT_EQ(from_federated->target, (QualifiedName{"", "team"}));
  EXPECT_EQ(from_federated->federated, (QualifiedName{"team", "team"}));
  EXPECT_FALSE(from_federated->possible_orphan);
}

// Verifies that system namespaces of the namespaces type are ignored, the KubeFed one included.
TEST(EventKeyTest, SystemNamespacesIgnored) {
  for (const char* key : {"kube-system", "kube-public", "default", "kube-federation-system",
                          "default/default", "kube-federation-system/kube-federation-system"}) {
    EXPECT_FALSE(resolveEventKey(key, true, "kube-federation-system")) << key;
  }
  EXPECT_TRUE(resolveEventKey("kube-federation-system", true, "other-system"));
  EXPECT_FALSE(resolveEventKey("other-system", true, "other-system"));
}

// Verifies the FederatedNamespace name rule.
TEST(EventKeyTest, FederatedNamespaceNameMustMatchNamespace) {
  EXPECT_TRUE(isValidFederatedNamespaceName({"team", "team"}));
  EXPECT_FALSE(isValidFederatedNamespaceName({"team", "other"}));
  const auto resolved = resolveEventKey("team/other", true, "kube-federation-system");
  ASSERT_TRUE(resolved);
  EXPECT_FALSE(isValidFederatedNamespaceName(resolved->federated));
}

}  // namespace
}  // namespace kf::sync
