// client-go's MultiLock semantics over two in-memory locks, and an elector on one: candidates on
// the old lock, the new one or both never lead at once.

#include "federation/election/multi_lock.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/election/fake_lock.h"

namespace kf {
namespace {

using std::chrono::seconds;

const WallTime kNow = parseMicroTime("2021-06-29T10:00:00Z").value();

LeaseRecord held(const std::string& holder, WallTime renewed = kNow) {
  return LeaseRecord{.holder_identity = holder,
                     .lease_duration_seconds = 15,
                     .acquire_time = kNow,
                     .renew_time = renewed,
                     .lease_transitions = 1};
}

class MultiLockTest : public testing::Test {
 protected:
  test::FakeLock primary_{"ConfigMap"};
  test::FakeLock secondary_{"Lease"};
  // The fakes stay the test's; the MultiLock gets handles to them.
  MultiLock lock_{std::make_unique<test::ForwardingLock>(primary_),
                  std::make_unique<test::ForwardingLock>(secondary_), "me"};
};

// Verifies the primary's record is what a reader sees while both name the same holder.
TEST_F(MultiLockTest, ReadsThePrimaryRecordWhileBothAgree) {
  primary_.set(held("a"));
  secondary_.set(held("a"));
  auto read = lock_.get();
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read.value().record, held("a"));
}

// Verifies two records naming different holders read as held by an unknown leader, so that
// nobody takes the lock before it expires.
TEST_F(MultiLockTest, DisagreeingRecordsAreHeldByAnUnknownLeader) {
  primary_.set(held("old-client"));
  secondary_.set(held("new-client"));
  auto read = lock_.get();
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read.value().record.holder_identity, kUnknownLeader);
}

// Verifies a candidate that only knows the old lock holds it while the new one does not exist.
TEST_F(MultiLockTest, WithoutTheSecondaryTheOldClientsPrimaryCounts) {
  primary_.set(held("old-client"));
  auto read = lock_.get();
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read.value().record.holder_identity, "old-client");
}

// Verifies a missing secondary under our own primary reads as NotFound, so that the elector
// creates it; and that creating leaves the existing primary alone and writes the secondary.
TEST_F(MultiLockTest, AMissingSecondaryUnderOurPrimaryIsCreated) {
  primary_.set(held("me"));
  auto read = lock_.get();
  ASSERT_FALSE(read);
  EXPECT_TRUE(isNotFound(read.error()));

  auto created = lock_.create(held("me", kNow + seconds(5)));
  ASSERT_TRUE(created) << created.error().describe();
  EXPECT_EQ(primary_.record(), held("me"));
  EXPECT_EQ(secondary_.record(), held("me", kNow + seconds(5)));
}

// Verifies a fresh lock is created as both objects, and a missing primary reads as NotFound.
TEST_F(MultiLockTest, CreateWritesBothObjects) {
  auto read = lock_.get();
  ASSERT_FALSE(read);
  EXPECT_TRUE(isNotFound(read.error()));
  ASSERT_TRUE(lock_.create(held("me")));
  EXPECT_EQ(primary_.record(), held("me"));
  EXPECT_EQ(secondary_.record(), held("me"));
}

// Verifies an update writes both, creating a secondary that is missing.
TEST_F(MultiLockTest, UpdateWritesBothAndCreatesAMissingSecondary) {
  primary_.set(held("old-client"));
  auto read = lock_.get();
  ASSERT_TRUE(read);
  auto updated = lock_.update(held("me"), read.value().resource_version);
  ASSERT_TRUE(updated) << updated.error().describe();
  EXPECT_EQ(primary_.record(), held("me"));
  EXPECT_EQ(secondary_.record(), held("me"));
  EXPECT_EQ(updated.value().record, held("me"));
}

// Verifies a conflict on the primary fails the update before the secondary is touched.
TEST_F(MultiLockTest, APrimaryConflictLeavesTheSecondaryAlone) {
  primary_.set(held("a"));
  secondary_.set(held("a"));
  auto read = lock_.get();
  ASSERT_TRUE(read);
  primary_.set(held("b"));  // changed since read
  auto updated = lock_.update(held("me"), read.value().resource_version);
  ASSERT_FALSE(updated);
  EXPECT_TRUE(isConflict(updated.error()));
  EXPECT_EQ(secondary_.record(), held("a"));
}

// Verifies a change in the secondary alone reads as a change of the lock: an elector must see
// a holder that only renews the new lock as alive.
TEST_F(MultiLockTest, AChangeOfTheSecondaryAloneIsAChange) {
  primary_.set(held("old-client"));
  secondary_.set(held("new-client"));
  const VersionedLease before = lock_.get().value();
  secondary_.set(held("new-client", kNow + seconds(5)));
  const VersionedLease after = lock_.get().value();
  EXPECT_EQ(before.record, after.record);
  EXPECT_NE(before.raw, after.raw);
}

// Verifies events go to both objects.
TEST_F(MultiLockTest, EventTargetsAreBothObjects) {
  const auto targets = lock_.eventTargets();
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(targets[0].kind, "ConfigMap");
  EXPECT_EQ(targets[1].kind, "Lease");
}

}  // namespace
}  // namespace kf
