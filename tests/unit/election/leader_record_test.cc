// client-go's LeaderElectionRecord in the leader annotation, as KubeFed's Go replicas write it.

#include "federation/election/leader_record.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

WallTime at(const char* text) { return parseMicroTime(text).value(); }

// Verifies Go's field order and metav1.Time's whole seconds in UTC.
TEST(LeaderRecordTest, EncodesAsClientGoWritesIt) {
  const LeaseRecord record{.holder_identity = "kubefed-controller-manager-7d9_0c2a",
                           .lease_duration_seconds = 15,
                           .acquire_time = at("2021-06-29T10:00:00.250000Z"),
                           .renew_time = at("2021-06-29T10:00:05.999999Z"),
                           .lease_transitions = 2};
  EXPECT_EQ(encodeLeaderRecord(record),
            R"({"holderIdentity":"kubefed-controller-manager-7d9_0c2a","leaseDurationSeconds":15,)"
            R"("acquireTime":"2021-06-29T10:00:00Z","renewTime":"2021-06-29T10:00:05Z",)"
            R"("leaderTransitions":2})");
}

// Verifies unset times are null and the empty holder is written, as Go writes a zero record.
TEST(LeaderRecordTest, EncodesAZeroRecordWithNullTimes) {
  EXPECT_EQ(encodeLeaderRecord(LeaseRecord{}),
            R"({"holderIdentity":"","leaseDurationSeconds":0,"acquireTime":null,)"
            R"("renewTime":null,"leaderTransitions":0})");
}

// Verifies a record as a KubeFed replica writes it reads back field by field, and that what we
// write reads back as written (to the second).
TEST(LeaderRecordTest, DecodesWhatAGoReplicaWrites) {
  auto record = decodeLeaderRecord(
      R"({"holderIdentity":"host-a_11f4","leaseDurationSeconds":15,)"
      R"("acquireTime":"2021-06-29T09:59:00Z","renewTime":"2021-06-29T10:00:05Z",)"
      R"("leaderTransitions":7})");
  ASSERT_TRUE(record) << record.error().describe();
  EXPECT_EQ(record.value().holder_identity, "host-a_11f4");
  EXPECT_EQ(record.value().lease_duration_seconds, 15);
  EXPECT_EQ(record.value().acquire_time, at("2021-06-29T09:59:00Z"));
  EXPECT_EQ(record.value().renew_time, at("2021-06-29T10:00:05Z"));
  EXPECT_EQ(record.value().lease_transitions, 7);

  const LeaseRecord mine{"me", 4, at("2021-06-29T10:00:00Z"), at("2021-06-29T10:00:01Z"), 1};
  EXPECT_EQ(decodeLeaderRecord(encodeLeaderRecord(mine)).value(), mine);
}

// Verifies what Go's json.Unmarshal tolerates: missing fields, nulls, fractional seconds.
TEST(LeaderRecordTest, DecodesMissingFieldsNullsAndFractions) {
  auto record = decodeLeaderRecord(
      R"({"holderIdentity":null,"renewTime":"2021-06-29T10:00:05.5Z","acquireTime":null})");
  ASSERT_TRUE(record) << record.error().describe();
  EXPECT_EQ(record.value().holder_identity, "");
  EXPECT_EQ(record.value().lease_duration_seconds, 0);
  EXPECT_FALSE(record.value().acquire_time.has_value());
  EXPECT_EQ(record.value().renew_time, at("2021-06-29T10:00:05Z") + milliseconds(500));
}

// Verifies an annotation that is not a record is an error naming the annotation, not an empty
// (and so free) lock.
TEST(LeaderRecordTest, RejectsWhatIsNotARecord) {
  for (const char* text : {"", "not json", "[]", R"({"holderIdentity":5})",
                           R"({"renewTime":"yesterday"})", R"({"leaseDurationSeconds":"15"})"}) {
    auto record = decodeLeaderRecord(text);
    ASSERT_FALSE(record) << text;
    EXPECT_EQ(record.error().reason, Reason::kBadResponse);
    EXPECT_THAT(record.error().message, testing::HasSubstr(kLeaderAnnotation)) << text;
  }
}

}  // namespace
}  // namespace kf
