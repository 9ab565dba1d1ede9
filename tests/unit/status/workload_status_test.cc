// Workload status (beyond KubeFed): reading each kind's member status, which clusters count,
// the totals and the WorkloadReady condition, and when the federated status is rewritten.

#include "status/workload_status.h"

#include <gtest/gtest.h>

namespace kf::status {
namespace {

using core::WorkloadKind;

Json withGeneration(const char* object, std::int64_t generation = 2) {
  Json out = Json::parse(object);
  out["metadata"]["generation"] = generation;
  return out;
}

struct ObserveCase {
  const char* name;
  WorkloadKind kind;
  const char* object;  // the member object; metadata.generation is set to 2
  const char* counts;  // the per-cluster entry summarizeWorkload writes
  bool rolled_out;
  const char* message;
};

class ObserveWorkloadTest : public ::testing::TestWithParam<ObserveCase> {};

// Verifies each kind's status fields are read into the counts, and "rolled out" means the
// rollout was observed, every replica is updated and available (Jobs: Complete).
TEST_P(ObserveWorkloadTest, ReadsCountsAndRolloutState) {
  const ObserveCase& c = GetParam();
  const ClusterWorkload seen = observeWorkload(c.kind, "m1", withGeneration(c.object));
  EXPECT_EQ(seen.rolled_out, c.rolled_out);
  EXPECT_EQ(seen.message, c.message);
  const WorkloadStatus summary = summarizeWorkload(c.kind, {seen});
  Json expected = Json::parse(c.counts);
  expected["name"] = "m1";
  expected["rolledOut"] = c.rolled_out;
  if (*c.message != '\0') expected["message"] = c.message;
  EXPECT_EQ(summary.workload["clusters"], Json::array({expected}));
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, ObserveWorkloadTest,
    ::testing::Values(
        ObserveCase{"DeploymentRolledOut", WorkloadKind::kDeployment,
                    R"({"metadata": {}, "spec": {"replicas": 3}, "status": {"observedGeneration": 2,
                        "replicas": 3, "readyReplicas": 3, "availableReplicas": 3,
                        "updatedReplicas": 3}})",
                    R"({"desiredReplicas": 3, "replicas": 3, "readyReplicas": 3,
                        "availableReplicas": 3, "updatedReplicas": 3})",
                    true, ""},
        ObserveCase{"DeploymentUnavailable", WorkloadKind::kDeployment,
                    R"({"metadata": {}, "spec": {"replicas": 3}, "status": {"observedGeneration": 2,
                        "replicas": 3, "readyReplicas": 1, "availableReplicas": 1,
                        "updatedReplicas": 3}})",
                    R"({"desiredReplicas": 3, "replicas": 3, "readyReplicas": 1,
                        "availableReplicas": 1, "updatedReplicas": 3})",
                    false, "1/3 available"},
        ObserveCase{"DeploymentWhoseNewPodCannotStartKeepsTheOldOne", WorkloadKind::kDeployment,
                    R"({"metadata": {}, "spec": {"replicas": 1}, "status": {"observedGeneration": 2,
                        "replicas": 2, "readyReplicas": 1, "availableReplicas": 1,
                        "updatedReplicas": 1}})",
                    R"({"desiredReplicas": 1, "replicas": 2, "readyReplicas": 1,
                        "availableReplicas": 1, "updatedReplicas": 1})",
                    false, "1 old replicas pending"},
        ObserveCase{"DeploymentNotObservedDefaultsToOneReplica", WorkloadKind::kDeployment,
                    R"({"metadata": {}, "spec": {}, "status": {"observedGeneration": 1,
                        "replicas": 1, "availableReplicas": 1, "updatedReplicas": 0}})",
                    R"({"desiredReplicas": 1, "replicas": 1, "readyReplicas": 0,
                        "availableReplicas": 1, "updatedReplicas": 0})",
                    false, "generation 2 not observed yet, 0/1 updated"},
        ObserveCase{"DeploymentWithoutStatus", WorkloadKind::kDeployment,
                    R"({"metadata": {}, "spec": {"replicas": 2}})",
                    R"({"desiredReplicas": 2, "replicas": 0, "readyReplicas": 0,
                        "availableReplicas": 0, "updatedReplicas": 0})",
                    false, "generation 2 not observed yet, 0/2 updated, 0/2 available"},
        ObserveCase{
            "ScaledToZero", WorkloadKind::kDeployment,
            R"({"metadata": {}, "spec": {"replicas": 0}, "status": {"observedGeneration": 2}})",
            R"({"desiredReplicas": 0, "replicas": 0, "readyReplicas": 0,
                        "availableReplicas": 0, "updatedReplicas": 0})",
            true, ""},
        ObserveCase{"ReplicaSetHasNoUpdatedCount", WorkloadKind::kReplicaSet,
                    R"({"metadata": {}, "spec": {"replicas": 2}, "status": {"observedGeneration": 2,
                        "replicas": 2, "readyReplicas": 2, "availableReplicas": 2}})",
                    R"({"desiredReplicas": 2, "replicas": 2, "readyReplicas": 2,
                        "availableReplicas": 2, "updatedReplicas": 2})",
                    true, ""},
        ObserveCase{"StatefulSetUpdating", WorkloadKind::kStatefulSet,
                    R"({"metadata": {}, "spec": {"replicas": 2}, "status": {"observedGeneration": 2,
                        "replicas": 2, "readyReplicas": 2, "availableReplicas": 2,
                        "updatedReplicas": 1}})",
                    R"({"desiredReplicas": 2, "replicas": 2, "readyReplicas": 2,
                        "availableReplicas": 2, "updatedReplicas": 1})",
                    false, "1/2 updated"},
        ObserveCase{"DaemonSetFieldsMapped", WorkloadKind::kDaemonSet,
                    R"({"metadata": {}, "status": {"observedGeneration": 2,
                        "desiredNumberScheduled": 4, "currentNumberScheduled": 4,
                        "numberReady": 3, "numberAvailable": 3, "updatedNumberScheduled": 4}})",
                    R"({"desiredReplicas": 4, "replicas": 4, "readyReplicas": 3,
                        "availableReplicas": 3, "updatedReplicas": 4})",
                    false, "3/4 available"},
        ObserveCase{"JobComplete", WorkloadKind::kJob,
                    R"({"metadata": {}, "spec": {"completions": 2}, "status": {"succeeded": 2,
                        "conditions": [{"type": "Complete", "status": "True"}]}})",
                    R"({"completions": 2, "active": 0, "succeeded": 2, "failed": 0})", true, ""},
        ObserveCase{"JobRunning", WorkloadKind::kJob,
                    R"({"metadata": {}, "spec": {}, "status": {"active": 1, "failed": 1}})",
                    R"({"completions": 1, "active": 1, "succeeded": 0, "failed": 1})", false,
                    "0/1 succeeded"},
        ObserveCase{"JobFailed", WorkloadKind::kJob,
                    R"({"metadata": {}, "spec": {}, "status": {"failed": 6,
                        "conditions": [{"type": "Failed", "status": "True"}]}})",
                    R"({"completions": 1, "active": 0, "succeeded": 0, "failed": 6})", false,
                    "failed"}),
    [](const ::testing::TestParamInfo<ObserveCase>& param_info) {
      return std::string(param_info.param.name);
    });

ObjectPtr rolledOutDeployment(std::int64_t replicas) {
  Json object = withGeneration(R"({"metadata": {}, "status": {"observedGeneration": 2}})");
  object["spec"]["replicas"] = replicas;
  for (const char* field : {"replicas", "readyReplicas", "availableReplicas", "updatedReplicas"}) {
    object["status"][field] = replicas;
  }
  return makeObject(std::move(object));
}

Json federatedWithClusters(const char* clusters) {
  Json object = Json::parse(R"({"metadata": {"name": "web", "namespace": "ns"}})");
  if (*clusters != '\0') object["status"]["clusters"] = Json::parse(clusters);
  return object;
}

std::vector<std::string> namesAndMessages(const std::vector<ClusterWorkload>& clusters) {
  std::vector<std::string> out;
  for (const ClusterWorkload& cluster : clusters) {
    out.push_back(cluster.cluster + (cluster.reported ? "" : " missing") +
                  (cluster.message.empty() ? "" : ": " + cluster.message));
  }
  return out;
}

// Verifies the clusters a workload is expected in: every cluster the propagation status lists
// (not one it is being removed from), with the reason when the object is not there, plus any
// cluster whose cache holds it (before the sync controller wrote its first status).
TEST(ClusterWorkloadsTest, ExpectedClustersComeFromPropagationStatusAndCaches) {
  const Json federated = federatedWithClusters(R"([
      {"name": "a"}, {"name": "b", "status": "ClusterNotReady"},
      {"name": "c", "status": "CreationFailed"}, {"name": "d", "status": "WaitingForRemoval"},
      {"name": "e"}])");
  const auto clusters = clusterWorkloads(WorkloadKind::kDeployment, federated,
                                         {{"a", rolledOutDeployment(2)},
                                          {"d", rolledOutDeployment(1)},
                                          {"e", nullptr},
                                          {"f", rolledOutDeployment(1)}});
  EXPECT_EQ(namesAndMessages(clusters),
            (std::vector<std::string>{"a", "b missing: cluster not ready",
                                      "c missing: not created (CreationFailed)",
                                      "e missing: not in the cluster's cache yet", "f"}));
}

// Verifies totals sum the reporting clusters and the condition names each lagging cluster with
// why; all rolled out is True; no cluster at all is not ready.
TEST(SummarizeWorkloadTest, TotalsAndConditionNameTheLaggingClusters) {
  ClusterWorkload lagging =
      observeWorkload(WorkloadKind::kDeployment, "member2", *rolledOutDeployment(3));
  lagging.counts.available = 1;
  lagging.rolled_out = false;
  lagging.message = "1/3 available";
  const std::vector<ClusterWorkload> clusters = {
      observeWorkload(WorkloadKind::kDeployment, "member1", *rolledOutDeployment(2)), lagging,
      missingWorkload("member3", "cluster not ready")};
  const WorkloadStatus summary = summarizeWorkload(WorkloadKind::kDeployment, clusters);
  EXPECT_EQ(summary.workload["desiredReplicas"], 5);
  EXPECT_EQ(summary.workload["availableReplicas"], 3);
  EXPECT_EQ(summary.workload["readyReplicas"], 5);
  EXPECT_EQ(summary.workload["clusters"][2], Json::parse(R"({"name": "member3", "rolledOut": false,
                            "message": "cluster not ready"})"));
  EXPECT_EQ(summary.condition,
            (WorkloadCondition{"False", "NotRolledOut",
                               "member2 (1/3 available), member3 (cluster not ready)"}));

  const WorkloadStatus ready = summarizeWorkload(WorkloadKind::kDeployment, {clusters[0]});
  EXPECT_EQ(ready.condition, (WorkloadCondition{"True", "RolledOut", ""}));
  EXPECT_EQ(summarizeWorkload(WorkloadKind::kDeployment, {}).condition.reason, "NotPlaced");
}

// Verifies the merge writes only on a change, sets lastTransitionTime only when the condition's
// status flips, and keeps what others wrote (the Propagation condition, clusters).
TEST(MergeWorkloadStatusTest, WritesOnlyChangesAndKeepsTheRest) {
  Json federated = Json::parse(R"({"metadata": {"name": "web"}, "status": {
      "observedGeneration": 3, "clusters": [{"name": "member1"}],
      "conditions": [{"type": "Propagation", "status": "True",
                      "lastTransitionTime": "2026-01-01T00:00:00Z"}]}})");
  WorkloadStatus desired{Json::parse(R"({"replicas": 1})"), {"False", "NotRolledOut", "m (x)"}};

  const auto first = mergeWorkloadStatus(federated, desired, "2026-02-02T00:00:00Z");
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ((*first)["observedGeneration"], 3);
  EXPECT_EQ((*first)["clusters"], Json::parse(R"([{"name": "member1"}])"));
  EXPECT_EQ((*first)["workload"], desired.workload);
  ASSERT_EQ((*first)["conditions"].size(), 2u);
  EXPECT_EQ((*first)["conditions"][0]["type"], "Propagation");
  EXPECT_EQ((*first)["conditions"][1], Json::parse(R"json({"type": "WorkloadReady",
      "status": "False", "reason": "NotRolledOut", "message": "m (x)",
      "lastTransitionTime": "2026-02-02T00:00:00Z", "lastUpdateTime": "2026-02-02T00:00:00Z"})json"));

  federated["status"] = *first;
  EXPECT_FALSE(mergeWorkloadStatus(federated, desired, "2026-03-03T00:00:00Z").has_value());

  desired.workload["replicas"] = 2;
  desired.condition.message = "m (y)";
  const auto counted = mergeWorkloadStatus(federated, desired, "2026-04-04T00:00:00Z");
  ASSERT_TRUE(counted.has_value());
  EXPECT_EQ((*counted)["conditions"][1]["lastTransitionTime"], "2026-02-02T00:00:00Z");
  EXPECT_EQ((*counted)["conditions"][1]["lastUpdateTime"], "2026-04-04T00:00:00Z");

  federated["status"] = *counted;
  desired.condition = {"True", "RolledOut", ""};
  const auto ready = mergeWorkloadStatus(federated, desired, "2026-05-05T00:00:00Z");
  ASSERT_TRUE(ready.has_value());
  EXPECT_EQ((*ready)["conditions"][1]["lastTransitionTime"], "2026-05-05T00:00:00Z");
  EXPECT_FALSE((*ready)["conditions"][1].contains("message"));
}

core::FederatedTypeConfig typeConfig(const char* group, const char* kind,
                                     const char* annotation = nullptr) {
  Json ftc = Json::parse(R"({"apiVersion": "core.kubefed.io/v1beta1",
      "kind": "FederatedTypeConfig", "metadata": {"name": "x"}, "spec": {"propagation": "Enabled",
      "federatedType": {"group": "types.kubefed.io", "version": "v1beta1", "kind": "FederatedX",
        "pluralName": "federatedxs", "scope": "Namespaced"},
      "targetType": {"version": "v1", "pluralName": "xs", "scope": "Namespaced"}}})");
  ftc["spec"]["targetType"]["kind"] = kind;
  if (*group != '\0') ftc["spec"]["targetType"]["group"] = group;
  if (annotation != nullptr) {
    ftc["metadata"]["annotations"][core::kWorkloadStatusAnnotation] = annotation;
  }
  return core::FederatedTypeConfig::fromJson(ftc).value();
}

// Verifies the five built-in workload types are on by default, others off, and the FTC
// annotation opts any type in (with a status shape) or out; an unknown value is an error.
TEST(WorkloadKindTest, BuiltInsByDefaultAnnotationOptsInAndOut) {
  using Kind = std::optional<WorkloadKind>;
  EXPECT_EQ(core::workloadKindOf(typeConfig("apps", "Deployment")).value(),
            Kind(WorkloadKind::kDeployment));
  EXPECT_EQ(core::workloadKindOf(typeConfig("apps", "DaemonSet")).value(),
            Kind(WorkloadKind::kDaemonSet));
  EXPECT_EQ(core::workloadKindOf(typeConfig("batch", "Job")).value(), Kind(WorkloadKind::kJob));
  EXPECT_EQ(core::workloadKindOf(typeConfig("", "ConfigMap")).value(), Kind());
  EXPECT_EQ(core::workloadKindOf(typeConfig("extensions", "Deployment")).value(), Kind());
  EXPECT_EQ(core::workloadKindOf(typeConfig("example.com", "Rollout", "Deployment")).value(),
            Kind(WorkloadKind::kDeployment));
  EXPECT_EQ(core::workloadKindOf(typeConfig("apps", "Deployment", "Disabled")).value(), Kind());
  const auto invalid = core::workloadKindOf(typeConfig("apps", "Deployment", "Pod"));
  ASSERT_FALSE(invalid);
  EXPECT_NE(invalid.error().message.find("kubefed.io/workload-status is \"Pod\""),
            std::string::npos);
}

}  // namespace
}  // namespace kf::status
