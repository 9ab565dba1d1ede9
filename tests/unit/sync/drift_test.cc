#include "sync/plan/drift.h"

#include <gtest/gtest.h>

#include "tests/support/json.h"

namespace kf::sync {
namespace {

using test::parsed;

struct DriftPlanCase {
  std::string name;
  DriftMode mode;
  MemberState state;
  MemberUpdatePlan expected;
};

class MemberUpdatePlanTest : public ::testing::TestWithParam<DriftPlanCase> {};

// Verifies the decision table of drift.h, row by row.
TEST_P(MemberUpdatePlanTest, DecidesAsTheTableSays) {
  const DriftPlanCase& c = GetParam();
  EXPECT_EQ(planMemberUpdate(MemberPolicy{.drift = c.mode}, c.state), c.expected);
}

constexpr MemberState kMemberUnchanged{
    .changed = false, .version_recorded = true, .differs = false};
constexpr MemberState kMemberNeverWritten{
    .changed = true, .version_recorded = false, .differs = true};
constexpr MemberState kMemberDrifted{.changed = true, .version_recorded = true, .differs = true};
constexpr MemberState kMemberChangedElsewhere{
    .changed = true, .version_recorded = true, .differs = false};
constexpr MemberUpdatePlan kNoWrite{};
constexpr MemberUpdatePlan kWriteOnly{.write = true};

INSTANTIATE_TEST_SUITE_P(
    Table, MemberUpdatePlanTest,
    ::testing::Values(
        DriftPlanCase{"RevertUnchanged", DriftMode::kRevert, kMemberUnchanged, kNoWrite},
        DriftPlanCase{"RevertDrifted", DriftMode::kRevert, kMemberDrifted, kWriteOnly},
        DriftPlanCase{"RevertChangedElsewhere", DriftMode::kRevert, kMemberChangedElsewhere,
                      kWriteOnly},
        DriftPlanCase{"RevertNeverWritten", DriftMode::kRevert, kMemberNeverWritten, kWriteOnly},
        DriftPlanCase{"ReportAndRevertUnchanged", DriftMode::kReportAndRevert, kMemberUnchanged,
                      kNoWrite},
        DriftPlanCase{"ReportAndRevertDrifted", DriftMode::kReportAndRevert, kMemberDrifted,
                      MemberUpdatePlan{.write = true, .report = true}},
        // Written back as KubeFed does (a label added by hand goes), with nothing to report.
        DriftPlanCase{"ReportAndRevertChangedElsewhere", DriftMode::kReportAndRevert,
                      kMemberChangedElsewhere, kWriteOnly},
        // A propagation (new template, new cluster) is never drift.
        DriftPlanCase{"ReportAndRevertNeverWritten", DriftMode::kReportAndRevert,
                      kMemberNeverWritten, kWriteOnly},
        DriftPlanCase{"ReportOnlyUnchanged", DriftMode::kReportOnly, kMemberUnchanged, kNoWrite},
        DriftPlanCase{"ReportOnlyDrifted", DriftMode::kReportOnly, kMemberDrifted,
                      MemberUpdatePlan{.report = true}},
        DriftPlanCase{"ReportOnlyChangedElsewhere", DriftMode::kReportOnly, kMemberChangedElsewhere,
                      MemberUpdatePlan{.record_member_version = true}},
        DriftPlanCase{"ReportOnlyNeverWritten", DriftMode::kReportOnly, kMemberNeverWritten,
                      kWriteOnly}),
    [](const ::testing::TestParamInfo<DriftPlanCase>& row) { return row.param.name; });

// Verifies that each drifted field is attributed to the manager that last wrote it, and when,
// ours never.
TEST(AttributeDriftTest, NamesTheManagerOfEachFieldFromManagedFields) {
  const Json live = parsed(R"({
    "metadata": {"managedFields": [
      {"manager": "kubefed-cpp", "operation": "Update", "time": "2026-01-01T00:00:00Z",
       "fieldsV1": {"f:data": {"f:a": {}, "f:b": {}}}},
      {"manager": "kubectl-edit", "operation": "Update", "time": "2026-01-02T00:00:00Z",
       "fieldsV1": {"f:data": {"f:a": {}}}}]},
    "data": {"a": "by hand", "b": "2"}})");
  const std::vector<FieldDifference> differences = {{"/data/a", Json("1"), Json("by hand")},
                                                    {"/data/b", Json("1"), Json("2")}};
  EXPECT_EQ(attributeDrift(differences, live, "kubefed-cpp"),
            (std::vector<DriftedField>{
                {"/data/a", Json("1"), Json("by hand"), "kubectl-edit", "2026-01-02T00:00:00Z"},
                {"/data/b", Json("1"), Json("2"), ""}}));
}

// Verifies the event message: cluster, paths, both values, manager; absent values and unknown
// managers in words.
TEST(DriftMessageTest, NamesClusterPathsValuesAndManager) {
  EXPECT_EQ(driftMessage("member1", {{"/data/key", Json("wanted"), Json("edited"), "kubectl-edit",
                                      "2026-01-02T00:00:00Z"},
                                     {"/data/gone", Json("x"), std::nullopt, ""}}),
            "Cluster \"member1\" drifted from the federated object: /data/key is \"edited\" "
            "(desired \"wanted\", changed by \"kubectl-edit\" at 2026-01-02T00:00:00Z); /data/gone "
            "is absent (desired "
            "\"x\", changed by an unknown manager)");
}

// Verifies that long values are cut and fields beyond ten counted, so a message stays small.
TEST(DriftMessageTest, StaysSmall) {
  std::vector<DriftedField> fields;
  for (int i = 0; i < 12; ++i) {
    fields.push_back({"/data/k" + std::to_string(i), Json(std::string(500, 'a')), Json("b"), "m"});
  }
  const std::string message = driftMessage("c", fields);
  EXPECT_LT(message.size(), 2000u);
  EXPECT_NE(message.find("; and 2 more fields"), std::string::npos) << message;
  EXPECT_EQ(message.find("/data/k10"), std::string::npos);
  EXPECT_NE(message.find(std::string(99, 'a') + "..."), std::string::npos);
}

// Verifies that a Secret's drift is reported without its values: the paths, the manager and
// whether a value is absent stay, what the values were does not (kubectl diff masks them too).
TEST(DriftMessageTest, ASecretsValuesAreHidden) {
  const Json live = {{"data", {{"password", "aHVudGVyMg=="}}}};
  const std::vector<FieldDifference> differences = {
      {"/data/password", Json("c2VjcmV0"), Json("aHVudGVyMg==")},
      {"/data/added", std::nullopt, Json("eA==")}};
  const std::vector<DriftedField> fields =
      attributeDrift(differences, live, "kubefed-cpp", /*hide_values=*/true);
  ASSERT_EQ(fields.size(), 2U);
  EXPECT_EQ(fields[0].live, Json("***"));
  EXPECT_EQ(fields[0].desired, Json("***"));
  EXPECT_EQ(fields[1].desired, std::nullopt) << "absent stays absent";
  const std::string message = driftMessage("member1", fields);
  EXPECT_EQ(message.find("aHVudGVyMg=="), std::string::npos) << message;
  EXPECT_EQ(message.find("c2VjcmV0"), std::string::npos) << message;
  EXPECT_EQ(message.find("eA=="), std::string::npos) << message;
  EXPECT_NE(message.find("/data/password is \"***\""), std::string::npos) << message;

  EXPECT_TRUE(hidesDriftValues({.group = "", .version = "v1", .kind = "Secret"}));
  EXPECT_FALSE(hidesDriftValues({.group = "", .version = "v1", .kind = "ConfigMap"}));
  EXPECT_FALSE(hidesDriftValues({.group = "example.com", .version = "v1", .kind = "Secret"}));
}

}  // namespace
}  // namespace kf::sync
