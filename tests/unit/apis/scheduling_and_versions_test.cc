#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>

#include "apis/core/federated_service_status.h"
#include "apis/core/propagated_version.h"
#include "apis/scheduling/replica_scheduling_preference.h"

namespace kf {
namespace {

Json rspJson() {
  return Json::parse(R"({
    "apiVersion": "scheduling.kubefed.io/v1alpha1",
    "kind": "ReplicaSchedulingPreference",
    "metadata": {"name": "web", "namespace": "ns"},
    "spec": {
      "targetKind": "FederatedDeployment",
      "totalReplicas": 9,
      "rebalance": true,
      "intersectWithClusterSelector": true,
      "clusters": {
        "*": {"weight": 1},
        "a": {"minReplicas": 2, "maxReplicas": 0, "weight": 3},
        "b": {"maxReplicas": 4}
      }
    }
  })");
}

TEST(ReplicaSchedulingPreferenceTest, ReadsFields) {
  auto rsp = scheduling::ReplicaSchedulingPreference::fromJson(rspJson());
  ASSERT_TRUE(rsp) << rsp.error().message;
  const auto& spec = rsp.value().spec;
  EXPECT_EQ(spec.target_kind, "FederatedDeployment");
  EXPECT_EQ(spec.total_replicas, 9);
  EXPECT_TRUE(spec.rebalance);
  EXPECT_TRUE(spec.intersect_with_cluster_selector);
  ASSERT_EQ(spec.clusters.size(), 3u);
  EXPECT_EQ(spec.clusters.at("*").weight, 1);
  EXPECT_FALSE(spec.clusters.at("*").max_replicas.has_value());
  EXPECT_EQ(spec.clusters.at("a").min_replicas, 2);
  EXPECT_EQ(spec.clusters.at("a").max_replicas, 0);  // present zero is a real bound
  EXPECT_EQ(spec.clusters.at("b").max_replicas, 4);
  EXPECT_EQ(spec.clusters.at("b").weight, 0);
}

TEST(ReplicaSchedulingPreferenceTest, RoundTripKeepsUnknownFieldsAndAbsence) {
  Json json = rspJson();
  json["status"] = Json::object();
  json["other"] = "o";
  json["spec"]["future"] = 1;
  json["spec"]["clusters"]["a"]["priority"] = 5;
  EXPECT_EQ(scheduling::ReplicaSchedulingPreference::fromJson(json).value().toJson(), json);

  const Json minimal = {{"spec", {{"targetKind", "FederatedReplicaSet"}, {"totalReplicas", 0}}}};
  const auto rsp = scheduling::ReplicaSchedulingPreference::fromJson(minimal).value();
  EXPECT_TRUE(rsp.spec.clusters.empty());
  EXPECT_EQ(rsp.toJson(), minimal);
}

TEST(ReplicaSchedulingPreferenceTest, WrongTypesNameThePath) {
  Json json = rspJson();
  json["spec"]["clusters"]["b"]["maxReplicas"] = "4";
  EXPECT_EQ(scheduling::ReplicaSchedulingPreference::fromJson(json).error().message,
            "spec.clusters[b].maxReplicas: expected integer");
  json = rspJson();
  json["spec"]["totalReplicas"] = 4294967296LL;
  EXPECT_EQ(scheduling::ReplicaSchedulingPreference::fromJson(json).error().message,
            "spec.totalReplicas: integer out of range");
  json = rspJson();
  json["spec"]["rebalance"] = "yes";
  EXPECT_EQ(scheduling::ReplicaSchedulingPreference::fromJson(json).error().message,
            "spec.rebalance: expected boolean");
}

TEST(PropagatedVersionTest, RoundTrip) {
  const Json json = Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1alpha1", "kind": "PropagatedVersion",
    "metadata": {"name": "deployment-web", "namespace": "ns",
                 "ownerReferences": [{"apiVersion": "types.kubefed.io/v1beta1",
                                      "kind": "FederatedDeployment", "name": "web", "uid": "u"}]},
    "status": {
      "templateVersion": "a5b8d4352d5aed51c51b93900258ccf3",
      "overridesVersion": "",
      "clusterVersions": [{"clusterName": "c1", "version": "gen:3", "x": 1},
                          {"clusterName": "c2", "version": "rv:42"}],
      "extra": {}
    }
  })");
  const auto version = core::PropagatedVersion::fromJson(json);
  ASSERT_TRUE(version) << version.error().message;
  ASSERT_TRUE(version.value().status.has_value());
  const auto& status = *version.value().status;
  EXPECT_EQ(status.template_version, "a5b8d4352d5aed51c51b93900258ccf3");
  ASSERT_EQ(status.cluster_versions.size(), 2u);
  EXPECT_EQ(status.cluster_versions[1].version, "rv:42");
  EXPECT_EQ(version.value().toJson(), json);
}

TEST(PropagatedVersionTest, EmptyClusterVersionsOmitted) {
  core::ClusterPropagatedVersion version;
  version.header.kind = "ClusterPropagatedVersion";
  version.status = core::PropagatedVersionStatus{"t", "o", {}, Json()};
  EXPECT_EQ(version.toJson(),
            (Json{{"kind", "ClusterPropagatedVersion"},
                  {"status", {{"templateVersion", "t"}, {"overridesVersion", "o"}}}}));
  EXPECT_EQ(core::PropagatedVersion::fromJson(Json{{"status", {{"clusterVersions", {1}}}}})
                .error()
                .message,
            "status.clusterVersions[0]: expected object");
}

TEST(FederatedServiceStatusTest, RoundTripKeepsServiceStatusAndUnknownFields) {
  const Json json = Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1alpha1", "kind": "FederatedServiceStatus",
    "metadata": {"name": "web", "namespace": "ns"},
    "clusterStatus": [
      {"clusterName": "c1", "status": {"loadBalancer": {"ingress": [{"ip": "192.0.2.1"}]}},
       "futureField": 1},
      {"clusterName": "c2", "status": {"loadBalancer": {}}}],
    "extraTopLevel": {"a": true}
  })");
  auto status = core::FederatedServiceStatus::fromJson(json);
  ASSERT_TRUE(status) << status.error().message;
  ASSERT_EQ(status.value().cluster_status.size(), 2u);
  EXPECT_EQ(status.value().cluster_status[0].cluster_name, "c1");
  EXPECT_EQ(status.value().cluster_status[0].status["loadBalancer"]["ingress"][0]["ip"],
            "192.0.2.1");
  EXPECT_EQ(status.value().toJson(), json);
}

TEST(FederatedServiceStatusTest, RejectsANonObjectStatusNamingThePath) {
  auto status = core::FederatedServiceStatus::fromJson(
      Json::parse(R"({"clusterStatus": [{"clusterName": "c1", "status": "up"}]})"));
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("clusterStatus[0].status"), std::string::npos)
      << status.error().message;
}

}  // namespace
}  // namespace kf
