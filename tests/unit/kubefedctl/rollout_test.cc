// `kubefedctl rollout` without clusters: the KIND/NAME argument, the status table from a
// RolloutRun, the stage approve picks, the approval annotation merged with what is there, the
// template undo writes back, and the command tree and its argument checks.

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/kubefedctl/rollout_view.h"
#include "cmd/kubefedctl/root.h"

namespace kf::kubefedctl {
namespace {

rollout::RolloutStrategySpec twoStages() {
  rollout::RolloutStrategySpec strategy;
  strategy.stages.push_back({.name = "canary",
                             .cluster_selector = {.match_labels = {{"stage", "canary"}}},
                             .max_concurrency = std::nullopt,
                             .soak_time = std::chrono::seconds(60),
                             .require_approval = false});
  strategy.stages.push_back({.name = "rest",
                             .cluster_selector = {.match_labels = {{"stage", "rest"}}},
                             .max_concurrency = std::nullopt,
                             .soak_time = {},
                             .require_approval = true});
  return strategy;
}

Json waitingRun() {
  return Json::parse(R"({
    "spec": {"strategy": "canary-first", "template": {"v": 2}, "previousTemplate": {"v": 1}},
    "status": {"phase": "WaitingForApproval", "currentStage": "rest",
               "message": "stage rest waits for approval",
               "templateHash": "new1", "previousTemplateHash": "old1", "stage": 1,
               "clusters": [
                 {"name": "member2", "templateHash": "old1", "since": "2026-11-28T09:00:00Z"},
                 {"name": "member1", "templateHash": "new1", "since": "2026-11-28T10:00:00Z"}]}})");
}

// Verifies both argument forms and that anything else is refused with the form expected.
TEST(RolloutTargetTest, KindSlashNameOrKindAndName) {
  auto slash = rolloutTargetOf({"deployment/web"});
  ASSERT_TRUE(slash);
  EXPECT_EQ(slash.value().type, "deployment");
  EXPECT_EQ(slash.value().name, "web");
  auto two = rolloutTargetOf({"federateddeployments", "web"});
  ASSERT_TRUE(two);
  EXPECT_EQ(two.value().type, "federateddeployments");
  EXPECT_EQ(two.value().name, "web");
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {}, {"web"}, {"/web"}, {"deployment/"}, {"a/b/c"}, {"a/b", "c"}, {"a", "b", "c"}}) {
    auto target = rolloutTargetOf(bad);
    ASSERT_FALSE(target) << ::testing::PrintToString(bad);
    EXPECT_NE(target.error().message.find("expected KIND/NAME"), std::string::npos);
  }
}

// Verifies approve's STAGE is the word after the target in either form, and that anything else
// is left to the target's check.
TEST(RolloutTargetTest, ApproveTakesAStageAfterTheTarget) {
  const TargetAndStage slash = splitStageArgument({"deployment/web", "rest"});
  EXPECT_EQ(slash.target, std::vector<std::string>{"deployment/web"});
  EXPECT_EQ(slash.stage, "rest");
  const TargetAndStage two = splitStageArgument({"deployment", "web", "rest"});
  EXPECT_EQ(two.target, (std::vector<std::string>{"deployment", "web"}));
  EXPECT_EQ(two.stage, "rest");
  EXPECT_EQ(splitStageArgument({"deployment", "web"}).stage, "");
  EXPECT_EQ(splitStageArgument({"deployment/web"}).stage, "");
  EXPECT_EQ(splitStageArgument({"a/b", "c", "d"}).target.size(), 3u);
}

// Verifies the table: rows in stage order, each cluster's template (new or previous) and since
// from the run, health from the workload status, a placed cluster not yet written and a cluster
// no stage selects.
TEST(RolloutSummaryTest, RowsInStageOrderWithHeldTemplateAndHealth) {
  const Json federated = Json::parse(R"({"status": {
      "clusters": [{"name": "member1"}, {"name": "member2"}, {"name": "member3"}],
      "workload": {"clusters": [{"name": "member1", "rolledOut": true},
                                {"name": "member2", "rolledOut": false}]}}})");
  const std::vector<ClusterLabels> clusters = {
      {"member1", {{"stage", "canary"}}}, {"member2", {{"stage", "rest"}}}, {"member3", {}}};
  const RolloutSummary summary = summarizeRollout(waitingRun(), twoStages(), clusters, federated);
  EXPECT_EQ(summary.strategy, "canary-first");
  EXPECT_EQ(summary.phase, "WaitingForApproval");
  EXPECT_EQ(summary.stage, "rest");
  std::ostringstream out;
  printRolloutSummary(summary, out);
  EXPECT_EQ(out.str(),
            "Strategy: canary-first\n"
            "Phase:    WaitingForApproval\n"
            "Stage:    rest\n"
            "Message:  stage rest waits for approval\n"
            "\n"
            "STAGE                 CLUSTER   TEMPLATE   HEALTHY   SINCE\n"
            "canary                member1   new        yes       2026-11-28T10:00:00Z\n"
            "rest                  member2   previous   no        2026-11-28T09:00:00Z\n"
            "(unstaged clusters)   member3   -          -         -\n");
}

// Verifies a cluster the run wrote to whose KubeFedCluster is gone (unjoined): listed, stage
// unknown, after the staged ones.
TEST(RolloutSummaryTest, UnjoinedClusterIsListedLast) {
  const RolloutSummary summary =
      summarizeRollout(waitingRun(), twoStages(), {{"member2", {{"stage", "rest"}}}}, Json());
  ASSERT_EQ(summary.rows.size(), 2u);
  EXPECT_EQ(summary.rows[0].cluster, "member2");
  EXPECT_EQ(summary.rows[1].cluster, "member1");
  EXPECT_EQ(summary.rows[1].stage, "-");
  EXPECT_EQ(summary.rows[1].held, "new");
  EXPECT_EQ(summary.rows[1].healthy, "-");
}

// Verifies approve's stage: the current one by default, a named one only when the strategy has
// it, none for a run that failed nor for a run of another template than the object's.
TEST(StageToApproveTest, CurrentNamedUnknownFailedAndStale) {
  EXPECT_EQ(stageToApprove(twoStages(), waitingRun(), "new1", "").value(), "rest");
  EXPECT_EQ(stageToApprove(twoStages(), waitingRun(), "new1", "canary").value(), "canary");
  auto stale = stageToApprove(twoStages(), waitingRun(), "newer", "");
  ASSERT_FALSE(stale);
  EXPECT_NE(stale.error().message.find("has not started yet"), std::string::npos);
  EXPECT_EQ(stageToApprove(twoStages(), waitingRun(), "newer", "rest").value(), "rest");
  auto unknown = stageToApprove(twoStages(), waitingRun(), "new1", "prod");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message,
            "unknown stage \"prod\": the strategy's stages are canary, rest");
  Json failed = waitingRun();
  failed["status"]["phase"] = "Failed";
  auto none = stageToApprove(twoStages(), failed, "new1", "");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no stage to approve (phase Failed)"), std::string::npos);
}

// Verifies the approval merge: entries of this run kept once, other runs' entries dropped.
TEST(MergedApprovalTest, KeepsThisRunsEntriesDropsOthers) {
  EXPECT_EQ(mergedApproval("", "rest", "h2"), "rest@h2");
  EXPECT_EQ(mergedApproval("canary@h2", "rest", "h2"), "canary@h2,rest@h2");
  EXPECT_EQ(mergedApproval("rest@h2", "rest", "h2"), "rest@h2");
  EXPECT_EQ(mergedApproval("rest@h1,canary@h2,canary@h2,junk", "rest", "h2"), "canary@h2,rest@h2");
}

// Verifies undo's template: the run's previous one, unless there is none or it is already back.
TEST(TemplateToRestoreTest, PreviousTemplateOrNothingToUndo) {
  const Json object = {{"spec", {{"template", {{"v", 2}}}}}};
  EXPECT_EQ(templateToRestore(waitingRun(), object).value(), Json({{"v", 1}}));
  auto already = templateToRestore(waitingRun(), {{"spec", {{"template", {{"v", 1}}}}}});
  ASSERT_FALSE(already);
  EXPECT_NE(already.error().message.find("nothing to undo"), std::string::npos);
  Json first = waitingRun();
  first["spec"].erase("previousTemplate");
  auto none = templateToRestore(first, object);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no previous template"), std::string::npos);
}

// Verifies the command tree: `rollout` lists its five commands, and a bad argument or output
// format fails before any cluster is contacted.
TEST(RolloutCommandTest, SubcommandsAndArgumentErrors) {
  std::ostringstream out, err;
  EXPECT_EQ(runRoot({"rollout", "--help"}, {out, err}), 0);
  for (const char* name : {"approve", "pause", "resume", "status", "undo"}) {
    EXPECT_NE(out.str().find(std::string("  ") + name), std::string::npos) << name;
  }
  std::ostringstream out2, err2;
  EXPECT_NE(runRoot({"rollout", "status", "web"}, {out2, err2}), 0);
  EXPECT_NE(err2.str().find("expected KIND/NAME"), std::string::npos) << err2.str();
  std::ostringstream out3, err3;
  EXPECT_NE(runRoot({"rollout", "status", "deployment/web", "-o", "wide"}, {out3, err3}), 0);
  EXPECT_NE(err3.str().find("Invalid value for --output: wide"), std::string::npos);
}

}  // namespace
}  // namespace kf::kubefedctl
