// `kubefedctl plan` without clusters: the unified diff, the text and JSON reports, the exit codes,
// and the command's argument checks and completion.

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/kubefedctl/plan_report.h"
#include "cmd/kubefedctl/root.h"
#include "cmd/kubefedctl/unified_diff.h"

namespace kf::kubefedctl {
namespace {

using sync::MemberAction;
using sync::MemberForecast;
using sync::PropagationStatus;

// Verifies that equal texts give no diff.
TEST(UnifiedDiffTest, EqualTextsGiveNothing) {
  EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n", "old", "new"), "");
  EXPECT_EQ(unifiedDiff("", "", "old", "new"), "");
}

// Verifies a changed line with three lines of context on each side, as diff -u prints it.
TEST(UnifiedDiffTest, ChangedLineHasContext) {
  const std::string from = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const std::string to = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(unifiedDiff(from, to, "a", "b"),
            "--- a\n+++ b\n"
            "@@ -2,7 +2,7 @@\n"
            " 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

// Verifies a new object: every line added, the old range empty.
TEST(UnifiedDiffTest, CreationAddsEveryLine) {
  EXPECT_EQ(unifiedDiff("", "x: 1\ny: 2\n", "live", "desired"),
            "--- live\n+++ desired\n@@ -0,0 +1,2 @@\n+x: 1\n+y: 2\n");
}

// Verifies that changes far apart make separate hunks, and close ones share one.
TEST(UnifiedDiffTest, DistantChangesMakeSeparateHunks) {
  std::string from;
  std::string to;
  for (int i = 1; i <= 20; ++i) {
    from += std::to_string(i) + "\n";
    to += (i == 2 || i == 18 ? "x" : std::to_string(i)) + "\n";
  }
  EXPECT_EQ(unifiedDiff(from, to, "a", "b"),
            "--- a\n+++ b\n"
            "@@ -1,5 +1,5 @@\n 1\n-2\n+x\n 3\n 4\n 5\n"
            "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+x\n 19\n 20\n");
  EXPECT_EQ(unifiedDiff("1\n2\n3\n4\n", "1\nx\n3\ny\n", "a", "b"),
            "--- a\n+++ b\n@@ -1,4 +1,4 @@\n 1\n-2\n+x\n 3\n-4\n+y\n");
}

// Verifies that a replaced block prints its removals before its additions.
TEST(UnifiedDiffTest, RemovalsComeBeforeAdditions) {
  EXPECT_EQ(unifiedDiff("a\nb\nc\n", "x\ny\nc\n", "a", "b"),
            "--- a\n+++ b\n@@ -1,3 +1,3 @@\n-a\n-b\n+x\n+y\n c\n");
}

MemberForecast planMember(const std::string& cluster, MemberAction action,
                          std::optional<PropagationStatus> status, const std::string& reason) {
  MemberForecast out;
  out.cluster = cluster;
  out.action = action;
  out.status = status;
  out.reason = reason;
  return out;
}

// A plan of the FederatedConfigMap shop/`name` with these member forecasts.
ObjectPlan configMapPlan(const std::string& name, std::vector<MemberForecast> clusters) {
  ObjectPlan plan;
  plan.kind = "FederatedConfigMap";
  plan.name = QualifiedName{"shop", name};
  plan.target_kind = "ConfigMap";
  plan.forecast.clusters = std::move(clusters);
  return plan;
}

ObjectPlan planOfWeb() {
  ObjectPlan plan = configMapPlan(
      "web",
      {planMember("member1", MemberAction::kUpdate, PropagationStatus::kOk, "changed by hand"),
       planMember("member2", MemberAction::kNone, PropagationStatus::kOk, "up to date"),
       planMember("member3", MemberAction::kDelete, PropagationStatus::kWaitingForRemoval,
                  "not placed and present")});
  plan.diffs["member1"] = "--- live\n+++ desired\n@@ -1 +1 @@\n-a\n+b\n";
  plan.forecast.reason = sync::AggregateReason::kCheckClusters;
  return plan;
}

ObjectPlan planOfQuiet() {
  return configMapPlan(
      "quiet", {planMember("member1", MemberAction::kNone, PropagationStatus::kOk, "up to date")});
}

// Verifies the exit codes: 0 nothing to write, 1 writes, 2 a member could not be read.
TEST(PlanReportTest, ExitCodesFollowKubectlDiff) {
  EXPECT_EQ(planExitCode({planOfQuiet()}), 0);
  EXPECT_EQ(planExitCode({}), 0);
  EXPECT_EQ(planExitCode({planOfQuiet(), planOfWeb()}), 1);
  ObjectPlan unreadable = planOfWeb();
  unreadable.forecast.clusters.push_back(
      planMember("member4", MemberAction::kUnknown, std::nullopt, "cannot connect"));
  EXPECT_EQ(planExitCode({unreadable}), 2);
}

// Verifies the text report: actions, reasons, statuses, the indented diff and the summary.
TEST(PlanReportTest, TextShowsEachClusterAndTheDiff) {
  std::ostringstream out;
  ObjectPlan plan = planOfWeb();
  plan.notes["member1"] = "the server's dry run failed";
  printPlanText({plan}, out);
  EXPECT_EQ(out.str(),
            "FederatedConfigMap \"shop/web\" (ConfigMap)\n"
            "  member1: update (changed by hand) -> status OK\n"
            "    note: the server's dry run failed\n"
            "    --- live\n    +++ desired\n    @@ -1 +1 @@\n    -a\n    +b\n"
            "  member2: none (up to date) -> status OK\n"
            "  member3: delete (not placed and present) -> status WaitingForRemoval\n"
            "  Propagation after the sync: False (CheckClusters)\n"
            "2 member writes:\n"
            "  update FederatedConfigMap shop/web in member1\n"
            "  delete FederatedConfigMap shop/web in member3\n");
}

// Verifies that nothing to do reads "No changes." and an unchanged rewrite is called so.
TEST(PlanReportTest, TextSaysNoChanges) {
  std::ostringstream out;
  printPlanText({planOfQuiet()}, out);
  EXPECT_EQ(out.str(),
            "FederatedConfigMap \"shop/quiet\" (ConfigMap)\n"
            "  member1: none (up to date) -> status OK\n"
            "  Propagation after the sync: True\n"
            "No changes.\n");
  ObjectPlan rewrite = planOfQuiet();
  rewrite.forecast.clusters[0].action = MemberAction::kUpdate;
  rewrite.diffs["member1"] = "";
  std::ostringstream rewritten;
  printPlanText({rewrite}, rewritten);
  EXPECT_NE(rewritten.str().find("    (the object is written unchanged)\n"), std::string::npos)
      << rewritten.str();
}

// Verifies the JSON form: one item per object, cluster statuses as the API writes them.
TEST(PlanReportTest, JsonHasActionsStatusesAndDiffs) {
  ObjectPlan plan = planOfWeb();
  plan.forecast.status = {{"observedGeneration", 2}};
  plan.source = "web.yaml";
  const Json json = planJson({plan, planOfQuiet()});
  EXPECT_EQ(json["memberWrites"], 2);
  ASSERT_EQ(json["items"].size(), 2u);
  const Json& web = json["items"][0];
  EXPECT_EQ(web["kind"], "FederatedConfigMap");
  EXPECT_EQ(web["namespace"], "shop");
  EXPECT_EQ(web["name"], "web");
  EXPECT_EQ(web["source"], "web.yaml");
  EXPECT_EQ(web["memberWrites"], 2);
  EXPECT_EQ(web["status"], (Json{{"observedGeneration", 2}}));
  ASSERT_EQ(web["clusters"].size(), 3u);
  EXPECT_EQ(web["clusters"][0], (Json{{"name", "member1"},
                                      {"action", "update"},
                                      {"reason", "changed by hand"},
                                      {"status", ""},
                                      {"diff", "--- live\n+++ desired\n@@ -1 +1 @@\n-a\n+b\n"}}));
  EXPECT_EQ(web["clusters"][2]["status"], "WaitingForRemoval");
  EXPECT_FALSE(web["clusters"][1].contains("diff"));
  EXPECT_EQ(json["items"][1]["memberWrites"], 0);
}

struct PlanRootRun {
  std::ostringstream out;
  std::ostringstream err;
  int run(const std::vector<std::string>& args) { return runRoot(args, {out, err}); }
};

// Verifies the argument checks made before any cluster is contacted.
TEST(PlanCommandTest, RejectsBadArguments) {
  PlanRootRun no_args;
  EXPECT_EQ(no_args.run({"plan"}), 255);
  EXPECT_NE(no_args.err.str().find("TYPE and NAME are required"), std::string::npos)
      << no_args.err.str();
  PlanRootRun both;
  EXPECT_EQ(both.run({"plan", "cm", "x", "-f", "x.yaml"}), 255);
  EXPECT_NE(both.err.str().find("cannot be given with -f"), std::string::npos) << both.err.str();
  PlanRootRun yaml;
  EXPECT_EQ(yaml.run({"plan", "cm", "x", "-o", "yaml"}), 255);
  EXPECT_NE(yaml.err.str().find("Invalid value for --output: yaml"), std::string::npos);
  PlanRootRun help;
  EXPECT_EQ(help.run({"plan", "--help"}), 0);
  EXPECT_NE(help.out.str().find("kubefedctl plan -f web.yaml -o json"), std::string::npos)
      << help.out.str();
  EXPECT_EQ(help.out.str().find("--dry-run"), std::string::npos) << help.out.str();
}

std::vector<std::string> completePlan(const std::vector<std::string>& words) {
  std::vector<std::string> args{"__complete"};
  args.insert(args.end(), words.begin(), words.end());
  PlanRootRun root;
  EXPECT_EQ(root.run(args), 0);
  std::vector<std::string> lines;
  std::istringstream in(root.out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Verifies that completion knows the command, its output format and its file flag.
TEST(PlanCommandTest, Completes) {
  EXPECT_EQ(completePlan({"pl"}), (std::vector<std::string>{"plan", ":words"}));
  EXPECT_EQ(completePlan({"plan", "-o", ""}), (std::vector<std::string>{"json", ":words"}));
  EXPECT_EQ(completePlan({"plan", "-f", ""}), (std::vector<std::string>{":files"}));
}

}  // namespace
}  // namespace kf::kubefedctl
