// The staged rollout's decisions, table by table: three members (stage canary: member1; stage
// rest: member2, member3), the time a fixed wall time plus offsets.
#include "sync/plan/rollout_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf::sync {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const WallTime kStart = WallTime{} + std::chrono::hours(24 * 365 * 50);

rollout::RolloutStrategySpec twoStages(std::chrono::nanoseconds soak = 60s) {
  rollout::RolloutStrategySpec strategy;
  rollout::Stage canary{.name = "canary", .soak_time = soak};
  canary.cluster_selector.match_labels = {{"stage", "canary"}};
  rollout::Stage rest{.name = "rest"};
  rest.cluster_selector.match_labels = {{"stage", "rest"}};
  strategy.stages = {canary, rest};
  strategy.progress_deadline = 120s;
  return strategy;
}

RolloutCluster member(const std::string& name, const std::string& stage,
                      ClusterHealth health = ClusterHealth::kUpdating) {
  return {.name = name, .labels = {{"stage", stage}}, .health = health};
}

std::vector<RolloutCluster> members(ClusterHealth first = ClusterHealth::kUpdating,
                                    ClusterHealth others = ClusterHealth::kUpdating) {
  return {member("member1", "canary", first), member("member2", "rest", others),
          member("member3", "rest", others)};
}

// A run of "new" over "old" in which `holding_new` got the new template at `since`.
RunRecord run(const std::vector<std::string>& holding_new, WallTime since = kStart) {
  RunRecord record;
  record.template_hash = "new";
  record.previous_hash = "old";
  for (const char* name : {"member1", "member2", "member3"}) {
    record.clusters[name] = HeldTemplate{"old", kStart - 1h, "gen:1"};
  }
  for (const std::string& name : holding_new) record.clusters[name] = {"new", since, "gen:2"};
  return record;
}

std::vector<std::string> sorted(const std::set<std::string>& names) {
  return {names.begin(), names.end()};
}

TEST(RolloutPlanTest, ANewTemplateGoesToTheFirstStageOnly) {
  const RolloutDecision decision = decideRollout(twoStages(), members(), run({}), {}, kStart);
  EXPECT_THAT(sorted(decision.send_new), ElementsAre("member1"));
  EXPECT_THAT(sorted(decision.keep_previous), ElementsAre("member2", "member3"));
  EXPECT_THAT(decision.roll_back, IsEmpty());
  EXPECT_EQ(decision.phase, RolloutPhase::kProgressing);
  EXPECT_EQ(decision.stage_name, "canary");
  EXPECT_EQ(decision.record.stage, 0U);
}

TEST(RolloutPlanTest, AHealthyStageSoaksBeforeTheNextStarts) {
  const RolloutDecision decision = decideRollout(twoStages(), members(ClusterHealth::kHealthy),
                                                 run({"member1"}), {}, kStart + 10s);
  EXPECT_EQ(decision.phase, RolloutPhase::kWaitingForSoak);
  EXPECT_THAT(sorted(decision.send_new), ElementsAre("member1"));
  EXPECT_THAT(sorted(decision.keep_previous), ElementsAre("member2", "member3"));
  ASSERT_TRUE(decision.record.stage_healthy_since);
  EXPECT_EQ(*decision.record.stage_healthy_since, kStart + 10s);
  ASSERT_TRUE(decision.recheck_after);
  EXPECT_EQ(*decision.recheck_after, 60s);
}

TEST(RolloutPlanTest, AfterTheSoakTheNextStageGetsTheNewTemplate) {
  RunRecord record = run({"member1"});
  record.stage_healthy_since = kStart + 10s;
  const RolloutDecision decision =
      decideRollout(twoStages(), members(ClusterHealth::kHealthy), record, {}, kStart + 70s);
  EXPECT_EQ(decision.phase, RolloutPhase::kProgressing);
  EXPECT_EQ(decision.stage_name, "rest");
  EXPECT_EQ(decision.record.stage, 1U);
  EXPECT_THAT(sorted(decision.send_new), ElementsAre("member1", "member2", "member3"));
  EXPECT_THAT(decision.keep_previous, IsEmpty());
}

TEST(RolloutPlanTest, AStageTurningUnhealthyRestartsItsSoak) {
  RunRecord record = run({"member1"});
  record.stage_healthy_since = kStart + 10s;
  const RolloutDecision decision = decideRollout(twoStages(), members(), record, {}, kStart + 30s);
  EXPECT_EQ(decision.phase, RolloutPhase::kProgressing);
  EXPECT_FALSE(decision.record.stage_healthy_since);
}

TEST(RolloutPlanTest, EveryStageHealthyAndSoakedCompletes) {
  RunRecord record = run({"member1", "member2", "member3"});
  record.stage = 1;
  const RolloutDecision decision = decideRollout(
      twoStages(), members(ClusterHealth::kHealthy, ClusterHealth::kHealthy), record, {}, kStart);
  EXPECT_EQ(decision.phase, RolloutPhase::kComplete);
  EXPECT_EQ(decision.record.stage, 3U);  // past the implicit last stage
  EXPECT_THAT(sorted(decision.send_new), ElementsAre("member1", "member2", "member3"));
  EXPECT_FALSE(decision.recheck_after);
}

TEST(RolloutPlanTest, NotHealthyByTheDeadlinePausesAndLaterStagesKeepTheOldTemplate) {
  const RolloutDecision early =
      decideRollout(twoStages(), members(), run({"member1"}), {}, kStart + 100s);
  EXPECT_EQ(early.phase, RolloutPhase::kProgressing);
  ASSERT_TRUE(early.recheck_after);
  EXPECT_EQ(*early.recheck_after, 20s);

  const RolloutDecision decision =
      decideRollout(twoStages(), members(), run({"member1"}), {}, kStart + 120s);
  EXPECT_EQ(decision.phase, RolloutPhase::kFailed);
  EXPECT_THAT(decision.record.failure,
              HasSubstr("stage canary: cluster member1 is not rolled out"));
  EXPECT_THAT(sorted(decision.send_new), ElementsAre("member1"));
  EXPECT_THAT(sorted(decision.keep_previous), ElementsAre("member2", "member3"));
  EXPECT_THAT(decision.roll_back, IsEmpty());

  // Failed stays failed, even once member1 turns healthy: a fix is a new template.
  const RolloutDecision later = decideRollout(twoStages(), members(ClusterHealth::kHealthy),
                                              decision.record, {}, kStart + 1h);
  EXPECT_EQ(later.phase, RolloutPhase::kFailed);
  EXPECT_THAT(sorted(later.keep_previous), ElementsAre("member2", "member3"));
}

TEST(RolloutPlanTest, AReportedFailureFailsAtOnce) {
  const RolloutDecision decision =
      decideRollout(twoStages(), members(ClusterHealth::kFailed), run({"member1"}), {}, kStart);
  EXPECT_EQ(decision.phase, RolloutPhase::kFailed);
  EXPECT_THAT(decision.message, HasSubstr("member1 reports the workload failed"));
}

TEST(RolloutPlanTest, OnFailureRollbackSendsThePreviousTemplateBack) {
  rollout::RolloutStrategySpec strategy = twoStages();
  strategy.on_failure = rollout::OnFailure::kRollback;
  const RolloutDecision decision =
      decideRollout(strategy, members(), run({"member1"}), {}, kStart + 121s);
  EXPECT_EQ(decision.phase, RolloutPhase::kRolledBack);
  EXPECT_THAT(sorted(decision.roll_back), ElementsAre("member1"));
  EXPECT_THAT(decision.send_new, IsEmpty());
  EXPECT_THAT(sorted(decision.keep_previous), ElementsAre("member2", "member3"));
  EXPECT_TRUE(decision.record.rolled_back);

  // Once member1 holds the previous template again, nothing is sent any more.
  RunRecord rolled = decision.record;
  recordHeld(rolled, {{"member1", "gen:3"}}, "old", kStart + 122s);
  const RolloutDecision after = decideRollout(strategy, members(), rolled, {}, kStart + 123s);
  EXPECT_EQ(after.phase, RolloutPhase::kRolledBack);
  EXPECT_THAT(after.roll_back, IsEmpty());
  EXPECT_THAT(sorted(after.keep_previous), ElementsAre("member1", "member2", "member3"));
}

TEST(RolloutPlanTest, ApprovalHoldsAStageUntilGiven) {
  rollout::RolloutStrategySpec strategy = twoStages(0s);
  strategy.stages[1].require_approval = true;
  const RolloutDecision held =
      decideRollout(strategy, members(ClusterHealth::kHealthy), run({"member1"}), {}, kStart);
  EXPECT_EQ(held.phase, RolloutPhase::kWaitingForApproval);
  EXPECT_EQ(held.stage_name, "rest");
  EXPECT_THAT(held.message, HasSubstr("kubefedctl rollout approve"));
  EXPECT_THAT(sorted(held.keep_previous), ElementsAre("member2", "member3"));

  const RolloutDecision approved =
      decideRollout(strategy, members(ClusterHealth::kHealthy), held.record,
                    {.approved_stages = {"rest"}}, kStart);
  EXPECT_EQ(approved.phase, RolloutPhase::kProgressing);
  EXPECT_THAT(sorted(approved.send_new), ElementsAre("member1", "member2", "member3"));
}

TEST(RolloutPlanTest, MaxConcurrencyLimitsTheClustersUpdatingAtOnce) {
  rollout::RolloutStrategySpec strategy = twoStages(0s);
  strategy.stages[1].max_concurrency = 1;
  RunRecord record = run({"member1"});
  record.stage = 1;
  const RolloutDecision first =
      decideRollout(strategy, members(ClusterHealth::kHealthy), record, {}, kStart);
  EXPECT_THAT(sorted(first.send_new), ElementsAre("member1", "member2"));
  EXPECT_THAT(sorted(first.keep_previous), ElementsAre("member3"));

  // member2 got it and is healthy: member3's turn.
  recordHeld(record, {{"member2", "gen:2"}}, "new", kStart);
  const RolloutDecision second = decideRollout(
      strategy, members(ClusterHealth::kHealthy, ClusterHealth::kHealthy), record, {}, kStart);
  EXPECT_THAT(sorted(second.send_new), ElementsAre("member1", "member2", "member3"));
}

TEST(RolloutPlanTest, APauseStopsNewClustersAndStages) {
  const RolloutIntent paused{.paused = true};
  const RolloutDecision before = decideRollout(twoStages(), members(), run({}), paused, kStart);
  EXPECT_EQ(before.phase, RolloutPhase::kPaused);
  EXPECT_THAT(before.send_new, IsEmpty());

  RunRecord record = run({"member1"});
  record.stage_healthy_since = kStart;
  const RolloutDecision after =
      decideRollout(twoStages(), members(ClusterHealth::kHealthy), record, paused, kStart + 1h);
  EXPECT_EQ(after.phase, RolloutPhase::kPaused);
  EXPECT_EQ(after.record.stage, 0U);
  EXPECT_THAT(sorted(after.keep_previous), ElementsAre("member2", "member3"));
}

TEST(RolloutPlanTest, JoinsTakeTheirStagesTemplateAndLeavesAreSkipped) {
  RunRecord record = run({"member1", "member2"});
  record.stage = 1;
  std::vector<RolloutCluster> clusters = {member("member1", "canary", ClusterHealth::kHealthy),
                                          member("member2", "rest"),
                                          member("member4", "canary")};  // member3 left
  RolloutDecision decision = decideRollout(twoStages(0s), clusters, record, {}, kStart);
  EXPECT_THAT(sorted(decision.send_new), ElementsAre("member1", "member2", "member4"));

  // Back in stage canary, a member joining the rest stage is created with the old template.
  clusters.push_back(member("member5", "rest"));
  decision = decideRollout(twoStages(), clusters, run({"member1"}), {}, kStart);
  EXPECT_THAT(sorted(decision.keep_previous), ElementsAre("member2", "member5"));
}

TEST(RolloutPlanTest, ClustersNoStageSelectsGoLast) {
  std::vector<RolloutCluster> clusters = members(ClusterHealth::kHealthy, ClusterHealth::kHealthy);
  clusters.push_back(member("member9", "elsewhere"));
  RunRecord record = run({"member1", "member2", "member3"});
  record.stage = 1;
  const RolloutDecision decision = decideRollout(twoStages(0s), clusters, record, {}, kStart);
  EXPECT_EQ(decision.phase, RolloutPhase::kProgressing);
  EXPECT_EQ(decision.stage_name, "(unstaged clusters)");
  EXPECT_TRUE(decision.send_new.contains("member9"));
}

TEST(RolloutPlanTest, AnEmptyStagePassesWithoutApproval) {
  rollout::RolloutStrategySpec strategy = twoStages(0s);
  strategy.stages[0].require_approval = true;
  std::vector<RolloutCluster> clusters = {member("member2", "rest")};
  const RolloutDecision decision = decideRollout(strategy, clusters, run({}), {}, kStart);
  EXPECT_EQ(decision.stage_name, "rest");
  EXPECT_THAT(sorted(decision.send_new), ElementsAre("member2"));
}

TEST(RolloutPlanTest, RunForStartsRunsFromWhatTheLastOneLeft) {
  const RunRecord first = runFor(nullptr, "a", 2);
  EXPECT_EQ(first.stage, 3U);  // the first template goes out at once
  EXPECT_EQ(first.previous_hash, "");

  RunRecord complete = run({"member1", "member2", "member3"});
  complete.stage = 3;
  const RunRecord after_complete = runFor(&complete, "newer", 2);
  EXPECT_EQ(after_complete.previous_hash, "new");
  EXPECT_EQ(after_complete.stage, 0U);
  EXPECT_EQ(after_complete.clusters, complete.clusters);

  RunRecord failed = run({"member1"});
  failed.failure = "stage canary: ...";
  const RunRecord fix = runFor(&failed, "fixed", 2);
  EXPECT_EQ(fix.previous_hash, "old");  // what the later stages still hold
  EXPECT_TRUE(fix.failure.empty());

  EXPECT_EQ(runFor(&failed, "new", 2), failed);  // the same template: the same run
}

TEST(RolloutPlanTest, TheCacheCatchesUpWithTheGenerationWritten) {
  const Json older = {{"metadata", {{"generation", 1}}}};
  const Json written = {{"metadata", {{"generation", 2}}}};
  EXPECT_FALSE(cacheCaughtUp(older, "gen:2"));
  EXPECT_TRUE(cacheCaughtUp(written, "gen:2"));
  EXPECT_TRUE(cacheCaughtUp(older, "rv:17"));
}

}  // namespace
}  // namespace kf::sync

namespace kf::sync {
namespace {

Json annotated(const StringMap& annotations) {
  Json object = {{"metadata", {{"name", "web"}}}};
  object["metadata"]["annotations"] = annotations;
  return object;
}

TEST(RolloutIntentTest, ApprovalsCountForTheirRunOnly) {
  const Json object = annotated({{kRolloutPausedAnnotation, "true"},
                                 {kRolloutApprovedAnnotation, "rest@new,canary@old,@new,odd"}});
  EXPECT_EQ(rolloutIntentOf(object, "new"),
            (RolloutIntent{.paused = true, .approved_stages = {"rest"}}));
  EXPECT_EQ(rolloutIntentOf(object, "old"),
            (RolloutIntent{.paused = true, .approved_stages = {"canary"}}));
  EXPECT_EQ(rolloutIntentOf(annotated({{kRolloutPausedAnnotation, "false"}}), "new"),
            RolloutIntent{});
  EXPECT_EQ(rolloutIntentOf(Json::object(), "new"), RolloutIntent{});
}

Json deployment(std::int64_t generation, std::int64_t observed, std::int64_t available,
                const Json& conditions = Json::array()) {
  return {{"metadata", {{"generation", generation}}},
          {"spec", {{"replicas", 2}}},
          {"status",
           {{"observedGeneration", observed},
            {"replicas", 2},
            {"updatedReplicas", 2},
            {"availableReplicas", available},
            {"conditions", conditions}}}};
}

TEST(RolloutHealthTest, AStageNeverPassesOnAStatusOlderThanItsTemplate) {
  const auto kind = std::optional(core::WorkloadKind::kDeployment);
  // The cache still holds the object before the rollout's write, rolled out as it was.
  const Json before = deployment(1, 1, 2);
  EXPECT_EQ(clusterHealth(kind, &before, "gen:2"), ClusterHealth::kUpdating);
  const Json written = deployment(2, 1, 2);
  EXPECT_EQ(clusterHealth(kind, &written, "gen:2"), ClusterHealth::kUpdating);
  const Json rolled_out = deployment(2, 2, 2);
  EXPECT_EQ(clusterHealth(kind, &rolled_out, "gen:2"), ClusterHealth::kHealthy);
  const Json stuck = deployment(2, 2, 1,
                                Json::array({{{"type", "Progressing"},
                                              {"status", "False"},
                                              {"reason", "ProgressDeadlineExceeded"}}}));
  EXPECT_EQ(clusterHealth(kind, &stuck, "gen:2"), ClusterHealth::kFailed);
  EXPECT_EQ(clusterHealth(kind, nullptr, "gen:2"), ClusterHealth::kUpdating);
}

TEST(RolloutHealthTest, OtherKindsAreHealthyOnceTheCacheHoldsTheObject) {
  const Json config_map = {{"metadata", {{"resourceVersion", "17"}}}};
  EXPECT_EQ(clusterHealth(std::nullopt, &config_map, "rv:17"), ClusterHealth::kHealthy);
  EXPECT_EQ(clusterHealth(std::nullopt, nullptr, "rv:17"), ClusterHealth::kUpdating);
}

TEST(RolloutHealthTest, AJobIsHealthyOnceCompleteAndFailedOnceFailed) {
  const auto kind = std::optional(core::WorkloadKind::kJob);
  const Json complete = {
      {"status", {{"conditions", {{{"type", "Complete"}, {"status", "True"}}}}}}};
  const Json failed = {{"status", {{"conditions", {{{"type", "Failed"}, {"status", "True"}}}}}}};
  const Json running = {{"status", {{"active", 1}}}};
  EXPECT_EQ(clusterHealth(kind, &complete, ""), ClusterHealth::kHealthy);
  EXPECT_EQ(clusterHealth(kind, &failed, ""), ClusterHealth::kFailed);
  EXPECT_EQ(clusterHealth(kind, &running, ""), ClusterHealth::kUpdating);
}

}  // namespace
}  // namespace kf::sync
