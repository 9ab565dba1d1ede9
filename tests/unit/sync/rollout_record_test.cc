#include "sync/plan/rollout_record.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf::sync {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

WallTime at(std::chrono::sys_seconds time) {
  return WallTime(std::chrono::duration_cast<WallTime::duration>(time.time_since_epoch()));
}

const WallTime kNoon = at(std::chrono::sys_days(std::chrono::year(2026) / 11 / 28) + 12h);

TEST(RolloutRecordTest, ARecordReadsBackAsWritten) {
  RunRecord record;
  record.template_hash = "new";
  record.previous_hash = "old";
  record.stage = 1;
  record.stage_healthy_since = kNoon + 90s;
  record.failure = "stage canary: cluster member1 reports the workload failed";
  record.rolled_back = true;
  record.clusters["member1"] = {"new", kNoon, "gen:7"};
  record.clusters["member2"] = {"old", kNoon - 1h, ""};

  const Json json = runRecordToJson(record);
  EXPECT_EQ(json["stageHealthySince"], "2026-11-28T12:01:30Z");
  EXPECT_EQ(json["clusters"][0], (Json{{"name", "member1"},
                                       {"templateHash", "new"},
                                       {"since", "2026-11-28T12:00:00Z"},
                                       {"version", "gen:7"}}));
  Result<RunRecord> read = runRecordFromJson(json, meta::FieldPath("status"));
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read.value(), record);
}

TEST(RolloutRecordTest, AFirstRecordLeavesOutWhatItLacks) {
  RunRecord record;
  record.template_hash = "a";
  record.stage = 3;
  const Json json = runRecordToJson(record);
  EXPECT_EQ(json, (Json{{"templateHash", "a"}, {"stage", 3}, {"clusters", Json::array()}}));
  EXPECT_EQ(runRecordFromJson(json, meta::FieldPath("status")).value(), record);
}

TEST(RolloutRecordTest, ABadTimeIsNamedWithItsField) {
  const Json json = {{"templateHash", "a"},
                     {"clusters", {{{"name", "member1"}, {"since", "yesterday"}}}}};
  Result<RunRecord> read = runRecordFromJson(json, meta::FieldPath("status"));
  ASSERT_FALSE(read);
  EXPECT_THAT(read.error().message, HasSubstr("status.clusters[0].since: expected an RFC 3339"));
  EXPECT_THAT(read.error().message, HasSubstr("\"yesterday\""));
}

TEST(RolloutRecordTest, ParsesTheApisTimesAndRefusesOthers) {
  EXPECT_EQ(parseRfc3339("2026-11-28T12:00:00Z"), kNoon);
  EXPECT_EQ(parseRfc3339("2026-11-28T12:00:00.75Z"), kNoon);
  EXPECT_EQ(parseRfc3339("2026-11-28T13:30:00+01:30"), kNoon);
  EXPECT_EQ(parseRfc3339("2026-11-28T10:00:00-02:00"), kNoon);
  for (const char* bad : {"", "2026-11-28", "2026-11-28 12:00:00Z", "2026-13-01T00:00:00Z",
                          "2026-02-30T00:00:00Z", "2026-11-28T24:00:00Z", "2026-11-28T12:00:00",
                          "2026-11-28T12:00:00Zjunk", "2026-11-28T12:00:00+0100"}) {
    EXPECT_FALSE(parseRfc3339(bad)) << bad;
  }
}

}  // namespace
}  // namespace kf::sync
