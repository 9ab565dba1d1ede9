#include "apis/rollout/rollout_strategy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf {
namespace {

using ::testing::HasSubstr;

Json strategyObject(const Json& spec) {
  return {{"apiVersion", "rollout.kubefed-cpp.io/v1alpha1"},
          {"kind", "RolloutStrategy"},
          {"metadata", {{"name", "canary-first"}, {"namespace", "ns"}}},
          {"spec", spec}};
}

TEST(RolloutStrategyTest, ReadsStagesGatesAndDefaults) {
  const Json spec = Json::parse(R"({
    "stages": [
      {"name": "canary", "clusterSelector": {"matchLabels": {"stage": "canary"}},
       "soakTime": "90s"},
      {"name": "rest", "clusterSelector": {}, "maxConcurrency": 2, "requireApproval": true}
    ]
  })");
  Result<rollout::RolloutStrategySpec> read = rollout::rolloutStrategyOf(strategyObject(spec));
  ASSERT_TRUE(read) << read.error().message;
  const rollout::RolloutStrategySpec& strategy = read.value();
  ASSERT_EQ(strategy.stages.size(), 2U);
  EXPECT_EQ(strategy.stages[0].name, "canary");
  EXPECT_EQ(strategy.stages[0].cluster_selector.match_labels.at("stage"), "canary");
  EXPECT_EQ(strategy.stages[0].soak_time, std::chrono::seconds(90));
  EXPECT_FALSE(strategy.stages[0].max_concurrency);
  EXPECT_FALSE(strategy.stages[0].require_approval);
  EXPECT_EQ(strategy.stages[1].max_concurrency, 2);
  EXPECT_TRUE(strategy.stages[1].require_approval);
  EXPECT_EQ(strategy.progress_deadline, rollout::kDefaultProgressDeadline);
  EXPECT_EQ(strategy.on_failure, rollout::OnFailure::kPause);
}

TEST(RolloutStrategyTest, ReadsDeadlineAndRollback) {
  const Json spec = Json::parse(R"({
    "stages": [{"name": "all", "clusterSelector": {}}],
    "progressDeadline": "2m", "onFailure": "Rollback"
  })");
  Result<rollout::RolloutStrategySpec> read = rollout::rolloutStrategyOf(strategyObject(spec));
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read.value().progress_deadline, std::chrono::minutes(2));
  EXPECT_EQ(read.value().on_failure, rollout::OnFailure::kRollback);
}

struct InvalidCase {
  const char* name;
  const char* spec;
  const char* message;  // a part of the error
};

class RolloutStrategyInvalidTest : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(RolloutStrategyInvalidTest, NamesTheFieldAndWhatToDo) {
  Result<rollout::RolloutStrategySpec> read =
      rollout::rolloutStrategyOf(strategyObject(Json::parse(GetParam().spec)));
  ASSERT_FALSE(read);
  EXPECT_THAT(read.error().message, HasSubstr("RolloutStrategy \"ns/canary-first\""));
  EXPECT_THAT(read.error().message, HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RolloutStrategyInvalidTest,
    ::testing::Values(
        InvalidCase{"NoStages", R"({})", "spec.stages: Required value"},
        InvalidCase{"EmptyStages", R"({"stages": []})", "spec.stages: Required value"},
        InvalidCase{"StageWithoutName", R"({"stages": [{"clusterSelector": {}}]})",
                    "spec.stages[0].name: Required value"},
        InvalidCase{"StageWithoutSelector", R"({"stages": [{"name": "a"}]})",
                    "spec.stages[0].clusterSelector: Required value"},
        InvalidCase{"DuplicateStage",
                    R"({"stages": [{"name": "a", "clusterSelector": {}},
                                   {"name": "a", "clusterSelector": {}}]})",
                    "spec.stages[1].name: Duplicate value: \"a\""},
        InvalidCase{"BadSelector",
                    R"({"stages": [{"name": "a", "clusterSelector":
                        {"matchExpressions": [{"key": "k", "operator": "Has"}]}}]})",
                    "spec.stages[0].clusterSelector"},
        InvalidCase{"ZeroConcurrency",
                    R"({"stages": [{"name": "a", "clusterSelector": {}, "maxConcurrency": 0}]})",
                    "spec.stages[0].maxConcurrency: Invalid value: 0: must be 1 or more"},
        InvalidCase{"BadSoak",
                    R"({"stages": [{"name": "a", "clusterSelector": {}, "soakTime": "5 min"}]})",
                    "spec.stages[0].soakTime: Invalid value: \"5 min\""},
        InvalidCase{"ZeroDeadline",
                    R"({"stages": [{"name": "a", "clusterSelector": {}}],
                        "progressDeadline": "0s"})",
                    "spec.progressDeadline: Invalid value: \"0s\": must be more than 0"},
        InvalidCase{
            "UnknownOnFailure",
            R"({"stages": [{"name": "a", "clusterSelector": {}}], "onFailure": "Continue"})",
            "spec.onFailure: Unsupported value: \"Continue\""}),
    [](const ::testing::TestParamInfo<InvalidCase>& row) { return row.param.name; });

}  // namespace
}  // namespace kf
