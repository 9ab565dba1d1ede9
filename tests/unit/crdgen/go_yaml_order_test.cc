// KubeFed's YAML writer's key order (go-yaml v2), which `kubefedctl enable -o yaml` reproduces.

#include "federation/crdgen/go_yaml_order.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

TEST(GoYamlOrderTest, SortsLettersByByteAndUppercaseFirst) {
  EXPECT_TRUE(goYamlKeyLess("apiVersion", "kind"));
  EXPECT_TRUE(goYamlKeyLess("clusterName", "clusterOverrides"));
  EXPECT_TRUE(goYamlKeyLess("Zebra", "apple"));
  EXPECT_TRUE(goYamlKeyLess("name", "names"));
  EXPECT_FALSE(goYamlKeyLess("kind", "kind"));
}

// Verifies a non-letter sorts before a letter wherever it stands, also after a digit, as KubeFed
// v0.8.1's kubefedctl printed data keys (v1_ before v1a, 10 before 1a).
TEST(GoYamlOrderTest, PutsANonLetterBeforeALetter) {
  EXPECT_TRUE(goYamlKeyLess("a_b", "aB"));  // byte order would put "aB" first
  EXPECT_TRUE(goYamlKeyLess("a~", "az"));
  EXPECT_TRUE(goYamlKeyLess("x-kubernetes-a", "xa"));
  EXPECT_TRUE(goYamlKeyLess("v1_", "v1a"));
  EXPECT_FALSE(goYamlKeyLess("v1a", "v1_"));
  EXPECT_TRUE(goYamlKeyLess("a1_", "a1b"));
  EXPECT_TRUE(goYamlKeyLess("10", "1a"));
  EXPECT_FALSE(goYamlKeyLess("1a", "10"));
}

TEST(GoYamlOrderTest, ComparesDigitRunsAsNumbers) {
  EXPECT_TRUE(goYamlKeyLess("port9", "port10"));
  EXPECT_FALSE(goYamlKeyLess("port10", "port9"));
  EXPECT_TRUE(goYamlKeyLess("v1alpha1", "v1beta1"));
  EXPECT_TRUE(goYamlKeyLess("a1b", "a01"));  // equal numbers: the shorter run first
  EXPECT_TRUE(goYamlKeyLess("10", "9a") == false);
}

// Verifies a digit run too long for int64 wraps around as Go's int64 does (no undefined
// behaviour): KubeFed v0.8.1's kubefedctl printed a12345678901234567890 before a2.
TEST(GoYamlOrderTest, DigitRunsWrapAroundAsGoInt64s) {
  EXPECT_TRUE(goYamlKeyLess("a12345678901234567890", "a2"));
  EXPECT_FALSE(goYamlKeyLess("a2", "a12345678901234567890"));
  EXPECT_TRUE(goYamlKeyLess("a2", "a9223372036854775807"));
}

TEST(GoYamlOrderTest, SortsEveryObjectAndKeepsArrays) {
  const auto sorted = sortedLikeGoYaml(nlohmann::ordered_json::parse(
      R"({"spec": {"targetType": {"version": "v1", "kind": "Job"}, "propagation": "Enabled"},
          "kind": "FederatedTypeConfig", "list": [{"b": 1, "a": 2}, 3]})"));
  EXPECT_EQ(sorted.dump(),
            R"({"kind":"FederatedTypeConfig","list":[{"a":2,"b":1},3],)"
            R"("spec":{"propagation":"Enabled","targetType":{"kind":"Job","version":"v1"}}})");
}

}  // namespace
}  // namespace kf
