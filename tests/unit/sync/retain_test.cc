#include "sync/plan/retain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/json.h"

namespace kf::sync {
namespace {

using ::testing::HasSubstr;

using test::parsed;

Json federatedWithRetainReplicas(std::optional<bool> retain) {
  Json spec = Json::object();
  if (retain) spec["retainReplicas"] = *retain;
  return Json{{"spec", spec}};
}

Json retainedReplicas(std::optional<bool> retain) {
  Json desired = parsed(R"({"spec": {"replicas": 1}})");
  const Json cluster = parsed(R"({"spec": {"replicas": 2}})");
  auto result =
      retainClusterFields("Deployment", desired, cluster, federatedWithRetainReplicas(retain));
  EXPECT_TRUE(result) << result.error().message;
  return desired["spec"]["replicas"];
}

// Verifies retain_test: without retainReplicas, or with false, the desired replicas stay.
TEST(RetainTest, ReplicasKeptWithoutRetainReplicas) {
  EXPECT_EQ(retainedReplicas(std::nullopt), 1);
  EXPECT_EQ(retainedReplicas(false), 1);
}

// Verifies retain_test: with retainReplicas true the cluster's replicas are used.
TEST(RetainTest, ReplicasRetainedWithRetainReplicas) { EXPECT_EQ(retainedReplicas(true), 2); }

// Verifies that retainReplicas leaves desired replicas alone when the cluster has none, and
// fails on a non-boolean retainReplicas or non-integer cluster replicas.
TEST(RetainTest, ReplicasEdgeCases) {
  Json desired = parsed(R"({"spec": {"replicas": 1}})");
  ASSERT_TRUE(retainClusterFields("Deployment", desired, parsed(R"({"spec": {}})"),
                                  federatedWithRetainReplicas(true)));
  EXPECT_EQ(desired["spec"]["replicas"], 1);
  auto bad_flag = retainClusterFields("Deployment", desired, parsed("{}"),
                                      parsed(R"({"spec": {"retainReplicas": "yes"}})"));
  ASSERT_FALSE(bad_flag);
  EXPECT_EQ(bad_flag.error().message,
            ".spec.retainReplicas accessor error: yes is of the type string, expected bool");
  auto bad_replicas =
      retainClusterFields("Deployment", desired, parsed(R"({"spec": {"replicas": 1.5}})"),
                          federatedWithRetainReplicas(true));
  ASSERT_FALSE(bad_replicas);
  EXPECT_EQ(bad_replicas.error().message,
            ".spec.replicas accessor error: 1.5 is of the type float64, expected int64");
}

// Verifies that resourceVersion, finalizers and annotations always come from the cluster.
TEST(RetainTest, MetadataAlwaysRetained) {
  Json desired = parsed(R"({"metadata": {"name": "x", "annotations": {"mine": "1"},
                                         "finalizers": ["mine"]}})");
  const Json cluster = parsed(R"({"metadata": {"name": "x", "resourceVersion": "42",
                                               "annotations": {"theirs": "2"},
                                               "finalizers": ["theirs"]}})");
  ASSERT_TRUE(retainClusterFields("ConfigMap", desired, cluster, parsed("{}")));
  EXPECT_EQ(desired, parsed(R"({"metadata": {"name": "x", "resourceVersion": "42",
                                             "annotations": {"theirs": "2"},
                                             "finalizers": ["theirs"]}})"));
  // Absent on the cluster: removed from the desired object.
  ASSERT_TRUE(
      retainClusterFields("ConfigMap", desired, parsed(R"({"metadata": {}})"), parsed("{}")));
  EXPECT_EQ(desired, parsed(R"({"metadata": {"name": "x"}})"));
}

Json retainedService(const char* desired_text, const char* cluster_text) {
  Json desired = parsed(desired_text);
  auto result = retainClusterFields("Service", desired, parsed(cluster_text), parsed("{}"));
  if (!result) return "error: " + result.error().message;
  return desired;
}

// Verifies retain_test for healthCheckNodePort: absent, non-integer, 0 and 1000.
TEST(RetainTest, ServiceHealthCheckNodePort) {
  EXPECT_EQ(retainedService(R"({"spec": {}})", R"({"spec": {}})"), parsed(R"({"spec": {}})"));
  EXPECT_EQ(retainedService(R"({"spec": {}})", R"({"spec": {"healthCheckNodePort": "x"}})"),
            "error: Error retrieving healthCheckNodePort from service: .spec.healthCheckNodePort "
            "accessor error: x is of the type string, expected int64");
  EXPECT_EQ(retainedService(R"({"spec": {}})", R"({"spec": {"healthCheckNodePort": 0}})"),
            parsed(R"({"spec": {}})"));
  EXPECT_EQ(retainedService(R"({"spec": {}})", R"({"spec": {"healthCheckNodePort": 1000}})"),
            parsed(R"({"spec": {"healthCheckNodePort": 1000}})"));
}

// Verifies retain_test for clusterIP and clusterIPs: wrong type fails; each is copied alone
// or together.
TEST(RetainTest, ServiceClusterIps) {
  EXPECT_THAT(retainedService(R"({"spec": {}})", R"({"spec": {"clusterIP": 5}})").dump(),
              HasSubstr("Error retrieving clusterIP from cluster service: .spec.clusterIP accessor "
                        "error: 5 is of the type int64, expected string"));
  EXPECT_EQ(retainedService(R"({"spec": {}})", R"({"spec": {"clusterIP": "10.0.0.1"}})"),
            parsed(R"({"spec": {"clusterIP": "10.0.0.1"}})"));
  EXPECT_EQ(retainedService(R"({"spec": {}})", R"({"spec": {"clusterIPs": ["10.0.0.1"]}})"),
            parsed(R"({"spec": {"clusterIPs": ["10.0.0.1"]}})"));
  EXPECT_EQ(
      retainedService(
          R"({"spec": {}})",
          R"({"spec": {"clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1", "fd00::1"]}})"),
      parsed(R"({"spec": {"clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1", "fd00::1"]}})"));
  EXPECT_EQ(retainedService(R"({"spec": {"clusterIP": "None"}})", R"({"spec": {"clusterIP": ""}})"),
            parsed(R"({"spec": {"clusterIP": "None"}})"));
  EXPECT_THAT(retainedService(R"({"spec": {}})", R"({"spec": {"clusterIPs": [1]}})").dump(),
              HasSubstr("Error retrieving clusterIPs from cluster service"));
}

// Verifies nodePort retention: only ports with equal name, protocol and port match (QUIRK: a
// template port without protocol never matches the cluster's defaulted TCP).
TEST(RetainTest, ServiceNodePorts) {
  EXPECT_EQ(
      retainedService(
          R"({"spec": {"ports": [{"name": "http", "protocol": "TCP", "port": 80},
                                       {"name": "dns", "protocol": "UDP", "port": 53}]}})",
          R"({"spec": {"ports": [{"name": "http", "protocol": "TCP", "port": 80, "nodePort": 30080},
                                       {"name": "dns", "protocol": "UDP", "port": 54,
                                        "nodePort": 30053}]}})"),
      parsed(
          R"({"spec": {"ports": [{"name": "http", "protocol": "TCP", "port": 80, "nodePort": 30080},
                                          {"name": "dns", "protocol": "UDP", "port": 53}]}})"));
  EXPECT_EQ(retainedService(
                R"({"spec": {"ports": [{"port": 80}]}})",
                R"({"spec": {"ports": [{"port": 80, "protocol": "TCP", "nodePort": 30080}]}})"),
            parsed(R"({"spec": {"ports": [{"port": 80}]}})"));
  EXPECT_EQ(retainedService(R"({"spec": {"ports": [{"port": 80}]}})",
                            R"({"spec": {"ports": [{"port": 80, "nodePort": 30080}]}})"),
            parsed(R"({"spec": {"ports": [{"port": 80, "nodePort": 30080}]}})"));
  EXPECT_EQ(retainedService(R"({"spec": {"ports": [{"port": 80}]}})",
                            R"({"spec": {"ports": [{"port": 80.0, "nodePort": 30080}]}})"),
            parsed(R"({"spec": {"ports": [{"port": 80}]}})"));
}

// Verifies the QUIRK that a desired Service without ports gets `ports: []` when the cluster has
// ports, and nothing when the cluster has none.
TEST(RetainTest, ServiceWithoutDesiredPortsGetsEmptyList) {
  EXPECT_EQ(retainedService(R"({"spec": {}})", R"({"spec": {"ports": [{"port": 80}]}})"),
            parsed(R"({"spec": {"ports": []}})"));
  EXPECT_EQ(retainedService(R"({"spec": {}})", R"({"spec": {}})"), parsed(R"({"spec": {}})"));
  EXPECT_THAT(retainedService(R"({"spec": {"ports": 5}})", R"({"spec": {"ports": []}})").dump(),
              HasSubstr("Error retrieving ports from service"));
}

// Verifies that Service retention does not touch replicas, and other kinds not Service fields.
TEST(RetainTest, KindSelectsTheRules) {
  Json desired = parsed(R"({"spec": {"replicas": 1}})");
  ASSERT_TRUE(retainClusterFields("Service", desired,
                                  parsed(R"({"spec": {"replicas": 2, "clusterIP": "1.2.3.4"}})"),
                                  federatedWithRetainReplicas(true)));
  EXPECT_EQ(desired, parsed(R"({"spec": {"replicas": 1, "clusterIP": "1.2.3.4"}})"));
  Json other = parsed(R"({"spec": {}})");
  ASSERT_TRUE(retainClusterFields("Deployment", other,
                                  parsed(R"({"spec": {"clusterIP": "1.2.3.4"}})"), parsed("{}")));
  EXPECT_EQ(other, parsed(R"({"spec": {}})"));
}

// Verifies ServiceAccount secrets: kept when desired has some, retained when it has none.
TEST(RetainTest, ServiceAccountSecrets) {
  const Json cluster = parsed(R"({"secrets": [{"name": "token-abc"}]})");
  Json without = parsed(R"({"metadata": {"name": "sa"}})");
  ASSERT_TRUE(retainClusterFields("ServiceAccount", without, cluster, parsed("{}")));
  EXPECT_EQ(without["secrets"], parsed(R"([{"name": "token-abc"}])"));
  Json empty = parsed(R"({"secrets": []})");
  ASSERT_TRUE(retainClusterFields("ServiceAccount", empty, cluster, parsed("{}")));
  EXPECT_EQ(empty["secrets"], parsed(R"([{"name": "token-abc"}])"));
  Json own = parsed(R"({"secrets": [{"name": "mine"}]})");
  ASSERT_TRUE(retainClusterFields("ServiceAccount", own, cluster, parsed("{}")));
  EXPECT_EQ(own["secrets"], parsed(R"([{"name": "mine"}])"));
  Json bad = parsed(R"({"secrets": "x"})");
  auto result = retainClusterFields("ServiceAccount", bad, cluster, parsed("{}"));
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message,
              HasSubstr("Error retrieving secrets from desired service account"));
}

}  // namespace
}  // namespace kf::sync
