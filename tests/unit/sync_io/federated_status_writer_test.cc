#include "sync/io/federated_status_writer.h"

#include <gtest/gtest.h>

#include <memory>

#include "tests/support/fake_api_server.h"
#include "tests/support/fake_clock.h"

namespace kf::sync {
namespace {

using test::FakeApiServer;
using test::FakeClock;

const GroupVersionResource kFederatedConfigMaps{"types.kubefed.io", "v1beta1",
                                                "federatedconfigmaps", true};

class FederatedStatusWriterTest : public ::testing::Test {
 protected:
  FederatedStatusWriterTest() {
    api_.enableStatusSubresource("federatedconfigmaps");
    host_ = api_.client(RetryPolicy{.max_attempts = 1});
    federated_objects_ = std::make_unique<ResourceClient>(*host_, kFederatedConfigMaps, "ns1");
    api_.put(kFederatedConfigMaps, Json::parse(R"({
        "apiVersion": "types.kubefed.io/v1beta1", "kind": "FederatedConfigMap",
        "metadata": {"name": "cm1", "namespace": "ns1", "generation": 2},
        "spec": {"template": {"data": {"k": "v"}}}})"));
  }

  Json stored() { return api_.get(kFederatedConfigMaps, "ns1", "cm1").value_or(Json()); }

  static PropagationOutcome outcome(PropagationStatus member2) {
    PropagationOutcome out;
    out.clusters["member1"] = ClusterOutcome{PropagationStatus::kOk, std::nullopt};
    out.clusters["member2"] = ClusterOutcome{member2, std::nullopt};
    return out;
  }

  FakeClock clock_;
  FakeApiServer api_{clock_};
  std::shared_ptr<RestClient> host_;
  std::unique_ptr<ResourceClient> federated_objects_;
};

TEST_F(FederatedStatusWriterTest, WritesTheComputedStatus) {
  auto written =
      writeFederatedStatus(*federated_objects_, stored(), outcome(PropagationStatus::kOk), clock_);
  ASSERT_TRUE(written) << written.error().describe();
  EXPECT_TRUE(written.value().changed);
  EXPECT_FALSE(written.value().retry_recoverable);
  const Json status = stored()["status"];
  EXPECT_EQ(status["observedGeneration"], 2);
  EXPECT_EQ(status["conditions"][0]["status"], "True");
  EXPECT_EQ(status["clusters"], Json::parse(R"([{"name": "member1"}, {"name": "member2"}])"));
}

// The object the server returned is remembered against the version it replaced, so that a
// reconcile starting before the cache shows the write does not write the same status again.
TEST_F(FederatedStatusWriterTest, RemembersTheWrittenObjectForACacheBehindIt) {
  const Json before = stored();
  WrittenObjects written_objects;
  auto written = writeFederatedStatus(*federated_objects_, before, outcome(PropagationStatus::kOk),
                                      clock_, &written_objects);
  ASSERT_TRUE(written) << written.error().describe();
  const Json after = stored();
  ASSERT_NE(objectResourceVersion(after), objectResourceVersion(before));
  ObjectPtr newest =
      written_objects.newest("ns1/cm1", std::make_shared<const Json>(before));  // cache behind
  ASSERT_NE(newest, nullptr);
  EXPECT_EQ(*newest, after);
  // This reconcile acted on what it wrote: the write's watch event needs no reconcile.
  EXPECT_TRUE(written_objects.isActedOnEcho("ns1/cm1", objectResourceVersion(after)));

  const std::size_t writes = api_.writeRequests();
  auto again = writeFederatedStatus(*federated_objects_, *newest, outcome(PropagationStatus::kOk),
                                    clock_, &written_objects);
  ASSERT_TRUE(again);
  EXPECT_FALSE(again.value().changed);
  EXPECT_EQ(api_.writeRequests(), writes);
}

TEST_F(FederatedStatusWriterTest, AnUnchangedStatusIsNotWrittenAgain) {
  ASSERT_TRUE(
      writeFederatedStatus(*federated_objects_, stored(), outcome(PropagationStatus::kOk), clock_));
  const std::size_t writes = api_.writeRequests();
  clock_.advance(std::chrono::seconds(5));
  auto again =
      writeFederatedStatus(*federated_objects_, stored(), outcome(PropagationStatus::kOk), clock_);
  ASSERT_TRUE(again);
  EXPECT_FALSE(again.value().changed);
  EXPECT_EQ(api_.writeRequests(), writes);
}

// The rollout summary (beyond KubeFed) is written with the status; a server whose CRD does not
// declare status.rollout returns the object without it, which the writer reports so that the
// controller stops writing a field that is pruned on every write.
TEST_F(FederatedStatusWriterTest, ARolloutSummaryTheServerPrunesIsReported) {
  PropagationOutcome with_summary = outcome(PropagationStatus::kOk);
  with_summary.rollout = Json::parse(R"({"strategy": "s", "phase": "Progressing"})");
  auto kept = writeFederatedStatus(*federated_objects_, stored(), with_summary, clock_);
  ASSERT_TRUE(kept) << kept.error().describe();
  EXPECT_FALSE(kept.value().rollout_pruned);
  EXPECT_EQ(stored()["status"]["rollout"], *with_summary.rollout);

  Json pruned = stored();
  pruned["status"].erase("rollout");
  api_.put(kFederatedConfigMaps, pruned);
  with_summary.rollout = Json::parse(R"({"strategy": "s", "phase": "Complete"})");
  api_.respondNext(HttpResponse{200, {{"content-type", "application/json"}}, stored().dump()});
  auto dropped = writeFederatedStatus(*federated_objects_, stored(), with_summary, clock_);
  ASSERT_TRUE(dropped) << dropped.error().describe();
  EXPECT_TRUE(dropped.value().rollout_pruned);
}

TEST_F(FederatedStatusWriterTest, AConflictReadsTheObjectAgainAndRetries) {
  const Json stale = stored();
  api_.put(kFederatedConfigMaps, stale);  // changed since it was read: a new resourceVersion
  WrittenObjects written_objects;
  auto written =
      writeFederatedStatus(*federated_objects_, stale, outcome(PropagationStatus::kCreationFailed),
                           clock_, &written_objects);
  ASSERT_TRUE(written) << written.error().describe();
  // Written onto a version this reconcile never looked at: its event must queue a reconcile.
  EXPECT_FALSE(written_objects.isActedOnEcho("ns1/cm1", objectResourceVersion(stored())));
  EXPECT_EQ(stored()["status"]["conditions"][0]["reason"], "CheckClusters");
  // Success overall except for a failure worth retrying: the caller backs off and retries.
  EXPECT_TRUE(written.value().retry_recoverable);
  const auto log = api_.requestLines();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].substr(0, 4), "PUT ");
  EXPECT_EQ(log[1].substr(0, 4), "GET ");
  EXPECT_EQ(log[2].substr(0, 4), "PUT ");
}

TEST_F(FederatedStatusWriterTest, AnObjectDeletedMeanwhileIsNotAnError) {
  const Json object = stored();
  api_.remove(kFederatedConfigMaps, "ns1", "cm1");
  EXPECT_TRUE(
      writeFederatedStatus(*federated_objects_, object, outcome(PropagationStatus::kOk), clock_));
}

TEST_F(FederatedStatusWriterTest, OtherErrorsAreReturnedWithTheObjectNamed) {
  api_.failNext({.method = "PUT"}, 403, "Forbidden");
  auto written =
      writeFederatedStatus(*federated_objects_, stored(), outcome(PropagationStatus::kOk), clock_);
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().reason, Reason::kForbidden);
  EXPECT_NE(written.error().message.find("ns1/cm1"), std::string::npos) << written.error().message;
}

}  // namespace
}  // namespace kf::sync
