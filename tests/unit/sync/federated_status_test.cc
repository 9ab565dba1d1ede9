#include "sync/plan/federated_status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/json.h"

namespace kf::sync {
namespace {

using std::chrono::seconds;
using ::testing::HasSubstr;

const WallClock kNow = WallClock{} + seconds(1700000000);  // 2023-11-14T22:13:20Z
const char* const kNowText = "2023-11-14T22:13:20Z";

using test::parsed;

// The stored status of status_test: cluster1 (with `remote`) and Propagation True.
Json storedObject(std::int64_t generation, std::optional<Json> remote = std::nullopt) {
  Json cluster = {{"name", "cluster1"}};
  if (remote) cluster["remoteStatus"] = *remote;
  return Json{{"metadata", {{"name", "x"}, {"namespace", "ns"}, {"generation", generation}}},
              {"status",
               {{"clusters", Json::array({cluster})},
                {"conditions", Json::array({{{"type", "Propagation"}, {"status", "True"}}})}}}};
}

struct StatusCase {
  const char* name;
  std::int64_t generation = 0;
  AggregateReason reason = AggregateReason::kSuccess;
  std::map<std::string, ClusterOutcome> clusters;
  std::optional<Json> stored_remote;
  bool resources_updated = false;
  bool raw = false;
  bool expect_changed = false;
};

ClusterOutcome outcome(PropagationStatus status, std::optional<Json> remote = std::nullopt) {
  return ClusterOutcome{status, std::move(remote)};
}

const PropagationStatus kOk = PropagationStatus::kOk;

std::vector<StatusCase> statusTestCases() {
  const Json empty = Json::object();
  const Json remote = parsed(R"({"status": {"status": "remoteStatus"}})");
  std::vector<StatusCase> cases;
  for (const bool raw : {true, false}) {
    cases.push_back({"ClusterNotPropagated",
                     0,
                     AggregateReason::kSuccess,
                     {{"cluster1", outcome(PropagationStatus::kClusterNotReady, empty)}},
                     std::nullopt,
                     false,
                     raw,
                     true});
    cases.push_back({"ClusterStatusNotRetrieved",
                     0,
                     AggregateReason::kSuccess,
                     {},
                     std::nullopt,
                     false,
                     raw,
                     true});
    cases.push_back({"NoCollectedRemoteStatus",
                     0,
                     AggregateReason::kSuccess,
                     {{"cluster1", outcome(kOk)}},
                     std::nullopt,
                     false,
                     raw,
                     raw});
    cases.push_back({"EmptyRemoteStatusDiffersFromStoredNil",
                     0,
                     AggregateReason::kSuccess,
                     {{"cluster1", outcome(kOk, empty)}},
                     std::nullopt,
                     false,
                     raw,
                     true});
    cases.push_back({"UpdateWithEmptyRemoteStatus",
                     0,
                     AggregateReason::kSuccess,
                     {{"cluster1", outcome(kOk, empty)}},
                     std::nullopt,
                     true,
                     raw,
                     true});
    cases.push_back({"ChangeInClusters",
                     0,
                     AggregateReason::kSuccess,
                     {{"cluster1", outcome(kOk)}, {"cluster2", outcome(kOk)}},
                     std::nullopt,
                     false,
                     raw,
                     true});
    cases.push_back({"Transition",
                     0,
                     AggregateReason::kNamespaceNotFederated,
                     {},
                     std::nullopt,
                     false,
                     raw,
                     true});
    cases.push_back(
        {"ChangedGeneration", 1, AggregateReason::kSuccess, {}, std::nullopt, false, raw, true});
  }
  cases.push_back({"NoChangeInRemoteStatus",
                   0,
                   AggregateReason::kSuccess,
                   {{"cluster1", outcome(kOk, remote)}},
                   remote,
                   false,
                   true,
                   false});
  return cases;
}

// Verifies status_test: when the computed status counts as changed (both collection modes).
TEST(FederatedStatusTest, ChangedVectors) {
  for (const auto& c : statusTestCases()) {
    PropagationOutcome input;
    input.reason = c.reason;
    input.clusters = c.clusters;
    input.resources_updated = c.resources_updated;
    input.raw_status_collection = c.raw;
    auto update = computeFederatedStatus(storedObject(c.generation, c.stored_remote), input, kNow);
    ASSERT_TRUE(update) << c.name << ": " << update.error().message;
    EXPECT_EQ(update.value().changed, c.expect_changed) << c.name << " raw=" << c.raw;
  }
}

// Verifies that an OK pass with nothing new writes nothing and the status stays as it was.
TEST(FederatedStatusTest, NothingNewIsUnchanged) {
  PropagationOutcome input;
  input.clusters = {{"cluster1", outcome(kOk)}};
  auto update = computeFederatedStatus(storedObject(0), input, kNow);
  ASSERT_TRUE(update);
  EXPECT_FALSE(update.value().changed);
  EXPECT_EQ(update.value().reason, AggregateReason::kSuccess);
  EXPECT_EQ(update.value().status, parsed(R"({"clusters": [{"name": "cluster1"}],
      "conditions": [{"type": "Propagation", "status": "True"}]})"));
}

// Verifies a propagation status write keeps what other writers put in the status (beyond
// KubeFed, which drops it): the workload status, other conditions and their messages.
TEST(FederatedStatusTest, KeepsWhatOtherWritersAdded) {
  Json object = storedObject(2);
  object["status"]["workload"] = parsed(R"({"replicas": 3})");
  object["status"]["conditions"].push_back(parsed(R"json({"type": "WorkloadReady",
      "status": "False", "reason": "NotRolledOut", "message": "member2 (1/3 available)"})json"));
  PropagationOutcome input;
  input.clusters = {{"cluster1", outcome(kOk)}};
  auto update = computeFederatedStatus(object, input, kNow);
  ASSERT_TRUE(update);
  EXPECT_TRUE(update.value().changed);  // the generation moved
  EXPECT_EQ(update.value().status["workload"], parsed(R"({"replicas": 3})"));
  EXPECT_EQ(update.value().status["conditions"][1]["message"], "member2 (1/3 available)");
  EXPECT_EQ(update.value().status["observedGeneration"], 2);
}

// Verifies the staged rollout's summary (beyond KubeFed): written as status.rollout when it is
// new or changed, also when nothing else changed; not written again when it is the same; removed
// when the object has no strategy any more; and absent (KubeFed's status) without one.
TEST(FederatedStatusTest, RolloutSummaryIsWrittenWhenItChanges) {
  const Json summary = parsed(R"({"strategy": "canary-first", "phase": "WaitingForSoak",
      "stage": "canary", "message": "stage canary is healthy; soaking for 5m0s"})");
  PropagationOutcome input;
  input.clusters = {{"cluster1", outcome(kOk)}};
  input.rollout = summary;
  auto first = computeFederatedStatus(storedObject(0), input, kNow);
  ASSERT_TRUE(first);
  EXPECT_TRUE(first.value().changed);
  EXPECT_EQ(first.value().status["rollout"], summary);

  Json object = storedObject(0);
  object["status"] = first.value().status;
  auto same = computeFederatedStatus(object, input, kNow);
  ASSERT_TRUE(same);
  EXPECT_FALSE(same.value().changed);

  input.rollout->at("phase") = "Complete";
  auto moved = computeFederatedStatus(object, input, kNow);
  ASSERT_TRUE(moved);
  EXPECT_TRUE(moved.value().changed);
  EXPECT_EQ(moved.value().status["rollout"]["phase"], "Complete");

  input.rollout.reset();
  auto dropped = computeFederatedStatus(object, input, kNow);
  ASSERT_TRUE(dropped);
  EXPECT_TRUE(dropped.value().changed);
  EXPECT_FALSE(dropped.value().status.contains("rollout"));
  auto never = computeFederatedStatus(storedObject(0), input, kNow);
  ASSERT_TRUE(never);
  EXPECT_FALSE(never.value().changed);
  EXPECT_FALSE(never.value().status.contains("rollout"));
}

// Verifies the spec vector "resources updated -> changed": with an unchanged cluster list only
// when some remote status was collected; lastUpdateTime moves, lastTransitionTime does not.
TEST(FederatedStatusTest, ResourcesUpdatedSetsLastUpdateTime) {
  PropagationOutcome input;
  input.resources_updated = true;
  input.clusters = {{"cluster1", outcome(kOk)}};
  EXPECT_FALSE(computeFederatedStatus(storedObject(0), input, kNow).value().changed);
  const Json remote = parsed(R"({"replicas": 1})");
  input.clusters = {{"cluster1", outcome(kOk, remote)}};
  input.raw_status_collection = true;
  auto update = computeFederatedStatus(storedObject(0, remote), input, kNow);
  ASSERT_TRUE(update);
  EXPECT_TRUE(update.value().changed);
  const Json& condition = update.value().status["conditions"][0];
  EXPECT_EQ(condition["lastUpdateTime"], kNowText);
  EXPECT_FALSE(condition.contains("lastTransitionTime"));
}

// Verifies that a status equal to the stored one is not written: KubeFed writes when
// lastUpdateTime is set, even to the second it already holds, which changes nothing stored. A
// later second is written.
TEST(FederatedStatusTest, ALastUpdateTimeSetToTheSecondItHoldsWritesNothing) {
  const Json remote = parsed(R"({"replicas": 1})");
  Json object = storedObject(0, remote);
  object["status"]["conditions"][0]["lastUpdateTime"] = kNowText;
  PropagationOutcome input;
  input.resources_updated = true;
  input.raw_status_collection = true;
  input.clusters = {{"cluster1", outcome(kOk, remote)}};
  auto same_second = computeFederatedStatus(object, input, kNow + std::chrono::milliseconds(900));
  ASSERT_TRUE(same_second) << same_second.error().message;
  EXPECT_FALSE(same_second.value().changed);
  EXPECT_EQ(same_second.value().status, object["status"]);

  auto next_second = computeFederatedStatus(object, input, kNow + seconds(1));
  ASSERT_TRUE(next_second) << next_second.error().message;
  EXPECT_TRUE(next_second.value().changed);
  EXPECT_EQ(next_second.value().status["conditions"][0]["lastUpdateTime"], "2023-11-14T22:13:21Z");
}

// Verifies the whole status written for a first reconcile: observedGeneration, the condition
// with both timestamps, clusters sorted with non-OK statuses named.
TEST(FederatedStatusTest, FirstStatus) {
  const Json object = parsed(R"({"metadata": {"name": "x", "generation": 4}})");
  PropagationOutcome input;
  input.clusters = {{"b", outcome(PropagationStatus::kCreationFailed)}, {"a", outcome(kOk)}};
  auto update = computeFederatedStatus(object, input, kNow);
  ASSERT_TRUE(update) << update.error().message;
  EXPECT_TRUE(update.value().changed);
  EXPECT_EQ(update.value().reason, AggregateReason::kCheckClusters);
  EXPECT_TRUE(update.value().retry_recoverable);
  EXPECT_EQ(update.value().status, Json::parse(std::string(R"({"observedGeneration": 4,
      "conditions": [{"type": "Propagation", "status": "False", "reason": "CheckClusters",
                      "lastUpdateTime": ")") + kNowText +
                                               R"(", "lastTransitionTime": ")" + kNowText + R"("}],
      "clusters": [{"name": "a"}, {"name": "b", "status": "CreationFailed"}]})"));
}

// Verifies that an unchanged (status, reason) keeps lastTransitionTime while a cluster change
// only moves lastUpdateTime; other conditions are kept whole (KubeFed would drop their message:
// we keep it, see KeepsWhatOtherWritersAdded).
TEST(FederatedStatusTest, TransitionTimeOnlyOnTransition) {
  const Json object = parsed(R"({"metadata": {"generation": 1}, "status": {
      "observedGeneration": 1,
      "conditions": [{"type": "Other", "status": "True", "message": "kept"},
                     {"type": "Propagation", "status": "True",
                      "lastUpdateTime": "2020-01-01T00:00:00Z",
                      "lastTransitionTime": "2020-01-01T00:00:00Z"}],
      "clusters": [{"name": "a"}]}})");
  PropagationOutcome input;
  input.clusters = {{"a", outcome(kOk)}, {"b", outcome(kOk)}};
  auto update = computeFederatedStatus(object, input, kNow);
  ASSERT_TRUE(update);
  EXPECT_TRUE(update.value().changed);
  const Json& conditions = update.value().status["conditions"];
  EXPECT_EQ(conditions[0], parsed(R"({"type": "Other", "status": "True", "message": "kept"})"));
  EXPECT_EQ(conditions[1]["lastTransitionTime"], "2020-01-01T00:00:00Z");
  EXPECT_EQ(conditions[1]["lastUpdateTime"], kNowText);
  EXPECT_EQ(update.value().status["clusters"], parsed(R"([{"name": "a"}, {"name": "b"}])"));
}

// Verifies that a failure reason transitions the condition and is not replaced by CheckClusters.
TEST(FederatedStatusTest, FailureReasonTransitions) {
  PropagationOutcome input;
  input.reason = AggregateReason::kComputePlacementFailed;
  auto update = computeFederatedStatus(storedObject(0), input, kNow);
  ASSERT_TRUE(update);
  EXPECT_TRUE(update.value().changed);
  EXPECT_EQ(update.value().reason, AggregateReason::kComputePlacementFailed);
  const Json& condition = update.value().status["conditions"][0];
  EXPECT_EQ(condition["status"], "False");
  EXPECT_EQ(condition["reason"], "ComputePlacementFailed");
  EXPECT_EQ(condition["lastTransitionTime"], kNowText);
  EXPECT_FALSE(update.value().status.contains("clusters"));
}

// Verifies step 1: NamespaceNotFederated only for a namespaced type without FederatedNamespace
// in a cluster-scoped control plane, and then no retry for recoverable failures.
TEST(FederatedStatusTest, NamespaceNotFederated) {
  PropagationOutcome input;
  input.clusters = {{"a", outcome(PropagationStatus::kUpdateFailed)}};
  input.namespace_facts = {false, true, false};
  auto update = computeFederatedStatus(storedObject(0), input, kNow).value();
  EXPECT_EQ(update.reason, AggregateReason::kNamespaceNotFederated);
  EXPECT_FALSE(update.retry_recoverable);
  input.namespace_facts = {true, true, false};
  EXPECT_EQ(computeFederatedStatus(storedObject(0), input, kNow).value().reason,
            AggregateReason::kCheckClusters);
  input.namespace_facts = {false, false, false};
  EXPECT_EQ(computeFederatedStatus(storedObject(0), input, kNow).value().reason,
            AggregateReason::kCheckClusters);
  input.namespace_facts = {false, true, true};
  EXPECT_TRUE(computeFederatedStatus(storedObject(0), input, kNow).value().retry_recoverable);
}

// Verifies the QUIRK: with raw collection, an object without status (null) keeps CheckClusters.
TEST(FederatedStatusTest, RawCollectionWithoutRemoteStatusChecksClusters) {
  PropagationOutcome input;
  input.raw_status_collection = true;
  input.clusters = {{"cluster1", outcome(kOk, Json(nullptr))}};
  auto update = computeFederatedStatus(storedObject(0), input, kNow).value();
  EXPECT_EQ(update.reason, AggregateReason::kCheckClusters);
  EXPECT_FALSE(update.retry_recoverable);
  EXPECT_EQ(update.status["clusters"], parsed(R"([{"name": "cluster1"}])"));
}

// Verifies that remote statuses compare after Go's JSON round trip (1 equals 1.0) and are
// written as such.
TEST(FederatedStatusTest, RemoteStatusComparedAfterNormalisation) {
  PropagationOutcome input;
  input.raw_status_collection = true;
  input.clusters = {{"cluster1", outcome(kOk, parsed(R"({"replicas": 2.0, "ok": true})"))}};
  auto same = computeFederatedStatus(storedObject(0, parsed(R"({"replicas": 2, "ok": true})")),
                                     input, kNow);
  ASSERT_TRUE(same);
  EXPECT_FALSE(same.value().changed);
  auto different = computeFederatedStatus(storedObject(0, parsed(R"({"replicas": 3, "ok": true})")),
                                          input, kNow);
  ASSERT_TRUE(different);
  EXPECT_TRUE(different.value().changed);
  const Json& written = different.value().status["clusters"][0]["remoteStatus"];
  EXPECT_TRUE(written["replicas"].is_number_integer());
  EXPECT_EQ(written, parsed(R"({"replicas": 2, "ok": true})"));
}

// Verifies step 7: only recoverable failures ask for a retry.
TEST(FederatedStatusTest, RetryOnlyForRecoverableFailures) {
  PropagationOutcome input;
  input.clusters = {{"a", outcome(PropagationStatus::kAlreadyExists)},
                    {"b", outcome(PropagationStatus::kClusterNotReady)}};
  EXPECT_FALSE(computeFederatedStatus(storedObject(0), input, kNow).value().retry_recoverable);
  input.clusters["c"] = outcome(PropagationStatus::kDeletionTimedOut);
  EXPECT_TRUE(computeFederatedStatus(storedObject(0), input, kNow).value().retry_recoverable);
  input.reason = AggregateReason::kClusterRetrievalFailed;
  EXPECT_FALSE(computeFederatedStatus(storedObject(0), input, kNow).value().retry_recoverable);
}

// Verifies that a malformed current status is an error naming the field.
TEST(FederatedStatusTest, MalformedStatusFails) {
  Json object = storedObject(0);
  object["status"]["clusters"] = "nope";
  auto update = computeFederatedStatus(object, {}, kNow);
  ASSERT_FALSE(update);
  EXPECT_THAT(update.error().message,
              HasSubstr("Failed to unmarshall to generic resource: status.clusters"));
  object = storedObject(0);
  object["status"]["conditions"][0]["status"] = true;
  EXPECT_FALSE(computeFederatedStatus(object, {}, kNow));
}

// Verifies the timestamp format: RFC 3339, UTC, whole seconds.
TEST(FederatedStatusTest, Rfc3339Seconds) {
  EXPECT_EQ(formatRfc3339Seconds(WallClock{}), "1970-01-01T00:00:00Z");
  EXPECT_EQ(formatRfc3339Seconds(kNow + std::chrono::milliseconds(999)), kNowText);
  EXPECT_EQ(formatRfc3339Seconds(WallClock{} - std::chrono::milliseconds(1)),
            "1969-12-31T23:59:59Z");
}

}  // namespace
}  // namespace kf::sync
