#include "sync/plan/server_side_apply.h"

#include <gtest/gtest.h>

#include "sync/plan/drift.h"
#include "tests/support/json.h"

namespace kf::sync {
namespace {

using test::parsed;

const std::vector<std::string> kOurs = {"kubefed-cpp", "kubefed"};

// A member Deployment: replicas taken by `kubectl scale`, the image ours, data.shared both ours
// and another applier's.
Json scaledDeployment() {
  return parsed(R"({
    "metadata": {"name": "web", "managedFields": [
      {"manager": "kubefed", "operation": "Apply", "time": "2026-01-01T00:00:00Z",
       "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {
         "k:{\"name\":\"c\"}": {".": {}, "f:image": {}, "f:name": {}}}}}, "f:shared": {}}}},
      {"manager": "other-applier", "operation": "Apply", "time": "2026-01-01T00:00:01Z",
       "fieldsV1": {"f:spec": {"f:shared": {}}}},
      {"manager": "kubectl-scale", "operation": "Update", "subresource": "scale",
       "time": "2026-01-02T00:00:00Z", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]},
    "spec": {"replicas": 5, "shared": "x", "removed": null,
             "template": {"spec": {"containers": [{"name": "c", "image": "old"}]}}}})");
}

// Verifies that only fields other managers alone own are yielded: not ours, not shared ones,
// not fields nobody owns.
TEST(FieldsOwnedElsewhereTest, YieldsWhatOnlyOthersOwn) {
  const std::vector<FieldDifference> differences = {
      {"/spec/replicas", Json(2), Json(5)},
      {"/spec/template/spec/containers/0/image", Json("new"), Json("old")},
      {"/spec/shared", Json("y"), Json("x")},
      {"/spec/gone", Json("z"), std::nullopt}};
  EXPECT_EQ(fieldsOwnedElsewhere(differences, scaledDeployment(), kOurs),
            (std::vector<OwnedField>{{"/spec/replicas", "kubectl-scale"}}));
  // Without managedFields nothing is known to be someone else's.
  EXPECT_TRUE(
      fieldsOwnedElsewhere(differences, parsed(R"({"spec": {"replicas": 5}})"), kOurs).empty());
}

// Verifies the apply patch: yielded fields and server-set metadata and status out.
TEST(ApplyPatchTest, LeavesOutYieldedFieldsAndWhatTheServerSets) {
  const Json intent = parsed(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "prod", "resourceVersion": "7", "uid": "u",
                 "labels": {"kubefed.io/managed": "true"}, "finalizers": ["x"]},
    "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "c"}]}}},
    "status": {"replicas": 1}})");
  EXPECT_EQ(applyPatch(intent, {{"/spec/replicas", "kubectl-scale"},
                                {"/spec/template/spec/containers/0", "x"},
                                {"not a pointer", "x"}}),
            parsed(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "prod", "labels": {"kubefed.io/managed": "true"}},
    "spec": {"template": {"spec": {"containers": [{"name": "c"}]}}}})"));
}

// Verifies that a conflict is taken back with force only when every cause is one of ours.
TEST(ConflictsOnlyWithTest, RecognisesOurOwnEarlierUpdates) {
  const StatusCause ours{"FieldManagerConflict", "conflict with \"kubefed-cpp\" using v1",
                         ".data.key"};
  const StatusCause theirs{"FieldManagerConflict",
                           "conflict with \"kube-controller-manager\" with subresource \"scale\" "
                           "using apps/v1",
                           ".spec.replicas"};
  EXPECT_TRUE(conflictsOnlyWith({ours}, {"kubefed-cpp"}));
  EXPECT_FALSE(conflictsOnlyWith({ours, theirs}, {"kubefed-cpp"}));
  EXPECT_FALSE(conflictsOnlyWith({}, {"kubefed-cpp"}));
  EXPECT_FALSE(conflictsOnlyWith({{"FieldValueInvalid", "bad", ".x"}}, {"kubefed-cpp"}));
}

// Verifies the FieldOwnedElsewhere message: cluster, field, manager.
TEST(FieldOwnedElsewhereMessageTest, NamesClusterFieldAndManager) {
  EXPECT_EQ(fieldOwnedElsewhereMessage("member1", {{"/spec/replicas", "kube-controller-manager"}}),
            "Cluster \"member1\": /spec/replicas is owned by \"kube-controller-manager\"; the "
            "controller does not send it there");
}

// Verifies the rows of the decision table that ServerSide changes: a member that differs only in
// what is not sent gets no write whatever the drift mode, its version recorded.
TEST(ServerSideUpdatePlanTest, ServerSideWritesOnlyWhatDiffersInFieldsItSends) {
  for (DriftMode mode : {DriftMode::kRevert, DriftMode::kReportAndRevert, DriftMode::kReportOnly}) {
    const MemberPolicy policy{.apply = ApplyMode::kServerSide, .drift = mode};
    EXPECT_EQ(planMemberUpdate(policy, {.changed = true, .version_recorded = true}),
              MemberUpdatePlan{.record_member_version = true});
    EXPECT_EQ(planMemberUpdate(policy, {.changed = true, .version_recorded = false}),
              MemberUpdatePlan{.record_member_version = true});
    EXPECT_EQ(
        planMemberUpdate(policy, {.changed = true, .version_recorded = false, .differs = true}),
        MemberUpdatePlan{.write = true});
    EXPECT_EQ(planMemberUpdate(policy, {}), MemberUpdatePlan{});
  }
  const MemberState drifted{.changed = true, .version_recorded = true, .differs = true};
  EXPECT_EQ(planMemberUpdate({.apply = ApplyMode::kServerSide}, drifted),
            MemberUpdatePlan{.write = true});
  EXPECT_EQ(
      planMemberUpdate({.apply = ApplyMode::kServerSide, .drift = DriftMode::kReportOnly}, drifted),
      MemberUpdatePlan{.report = true});
}

}  // namespace
}  // namespace kf::sync
