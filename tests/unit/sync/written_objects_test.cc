#include "sync/io/written_objects.h"

#include <gtest/gtest.h>

#include <memory>

namespace kf::sync {
namespace {

ObjectPtr at(const std::string& resource_version) {
  return std::make_shared<const Json>(
      Json{{"metadata", {{"name", "a"}, {"resourceVersion", resource_version}}}});
}

std::string versionOf(const ObjectPtr& object) {
  return object ? objectResourceVersion(*object) : "none";
}

TEST(WrittenObjectsTest, WithoutWritesTheCachedObjectIsUsed) {
  WrittenObjects written;
  EXPECT_EQ(versionOf(written.newest("ns/a", at("5"))), "5");
  EXPECT_EQ(versionOf(written.newest("ns/a", nullptr)), "none");
}

// A cache that still shows a version our writes replaced (the finalizer patch 1 -> 2, then the
// status update 2 -> 3) gives the newest written object.
TEST(WrittenObjectsTest, ACacheBehindOurWritesGivesTheObjectWeWrote) {
  WrittenObjects written;
  written.record("ns/a", "1", *at("2"), /*acted_on=*/true);
  written.record("ns/a", "2", *at("3"), /*acted_on=*/true);
  EXPECT_EQ(versionOf(written.newest("ns/a", at("1"))), "3");
  EXPECT_EQ(versionOf(written.newest("ns/a", at("2"))), "3");
  EXPECT_EQ(versionOf(written.newest("ns/b", at("2"))), "2");  // another object's versions
  EXPECT_EQ(written.size(), 1u);
}

// Once the cache shows our write, or anything we did not replace (someone wrote after us), the
// cache is the newest: the entry goes.
TEST(WrittenObjectsTest, ACacheThatCaughtUpDropsTheEntry) {
  WrittenObjects written;
  written.record("ns/a", "1", *at("2"), /*acted_on=*/true);
  EXPECT_EQ(versionOf(written.newest("ns/a", at("2"))), "2");
  EXPECT_EQ(written.size(), 0u);
  EXPECT_EQ(versionOf(written.newest("ns/a", at("1"))), "1");  // nothing remembered any more

  written.record("ns/a", "4", *at("5"), /*acted_on=*/true);
  EXPECT_EQ(versionOf(written.newest("ns/a", at("7"))), "7");
  EXPECT_EQ(written.size(), 0u);
}

// A write that stored nothing new returns the version it was made on: that version is not
// "replaced", so the cache showing it is current.
TEST(WrittenObjectsTest, AWriteThatKeptItsVersionReplacesNothing) {
  WrittenObjects written;
  written.record("ns/a", "3", *at("3"), /*acted_on=*/true);
  EXPECT_EQ(versionOf(written.newest("ns/a", at("3"))), "3");
  EXPECT_EQ(written.size(), 0u);
}

TEST(WrittenObjectsTest, DeletedOrForgottenObjectsLeaveNothingBehind) {
  WrittenObjects written;
  written.record("ns/a", "1", *at("2"), /*acted_on=*/true);
  EXPECT_EQ(written.newest("ns/a", nullptr), nullptr);  // gone from the cache: deleted
  EXPECT_EQ(written.size(), 0u);
  written.record("ns/a", "1", *at("2"), /*acted_on=*/true);
  written.forget("ns/a");
  EXPECT_EQ(versionOf(written.newest("ns/a", at("1"))), "1");
}

// The finalizer patch 1 -> 2 and the status write 2 -> 3 of one reconcile: their events need no
// reconcile, each recognised once, and the last one's ends the record (the cache shows it).
TEST(WrittenObjectsTest, TheEchoesOfWritesTheReconcileActedOnAreRecognisedOnce) {
  WrittenObjects written;
  written.record("ns/a", "1", *at("2"), /*acted_on=*/true);
  written.record("ns/a", "2", *at("3"), /*acted_on=*/true);
  EXPECT_FALSE(written.isActedOnEcho("ns/a", "1"));  // the version the reconcile started from
  EXPECT_FALSE(written.isActedOnEcho("ns/b", "2"));  // another object's
  EXPECT_TRUE(written.isActedOnEcho("ns/a", "2"));
  EXPECT_FALSE(written.isActedOnEcho("ns/a", "2"));
  EXPECT_EQ(written.size(), 1u);
  EXPECT_TRUE(written.isActedOnEcho("ns/a", "3"));
  EXPECT_EQ(written.size(), 0u);
  EXPECT_FALSE(written.isActedOnEcho("ns/a", "3"));
}

// A status written onto a newer object the reconcile had to re-read after a conflict (someone
// changed the spec meanwhile): its event must still queue a reconcile.
TEST(WrittenObjectsTest, AWriteOnAnObjectTheReconcileDidNotActOnIsNoEcho) {
  WrittenObjects written;
  written.record("ns/a", "4", *at("5"), /*acted_on=*/false);
  EXPECT_FALSE(written.isActedOnEcho("ns/a", "5"));
  EXPECT_EQ(versionOf(written.newest("ns/a", at("4"))), "5");  // still the newest we know
}

// A write that stored nothing new sends no event, so there is no echo to wait for.
TEST(WrittenObjectsTest, AWriteThatKeptItsVersionExpectsNoEcho) {
  WrittenObjects written;
  written.record("ns/a", "3", *at("3"), /*acted_on=*/true);
  EXPECT_FALSE(written.isActedOnEcho("ns/a", "3"));
}

// The echo of a write can reach the informer before the write's answer reaches the reconcile:
// while the write is in flight an unknown event is held back, and once the answer shows it was
// the echo, nothing is queued for it.
TEST(WrittenObjectsTest, AnEchoThatArrivesBeforeTheAnswerIsHeldThenDropped) {
  WrittenObjects written;
  {
    WrittenObjects::PendingWrite patch = written.beginWrite("ns/a");
    EXPECT_TRUE(written.isActedOnEcho("ns/a", "2"));  // held, not queued
    patch.record("1", *at("2"), /*acted_on=*/true);
  }
  EXPECT_FALSE(written.takeRequeue("ns/a"));
  EXPECT_EQ(versionOf(written.newest("ns/a", at("1"))), "2");
  EXPECT_FALSE(written.isActedOnEcho("ns/a", "2"));  // already seen: not waited for again
}

// Someone else's change that arrives while our write is in flight is held, then handed to the
// reconcile to queue again; so is one held during a write that failed.
TEST(WrittenObjectsTest, AnotherWritersChangeHeldDuringOurWriteAsksForAnotherReconcile) {
  WrittenObjects written;
  {
    WrittenObjects::PendingWrite patch = written.beginWrite("ns/a");
    EXPECT_TRUE(written.isActedOnEcho("ns/a", "5"));
    patch.record("1", *at("6"), /*acted_on=*/true);
  }
  EXPECT_TRUE(written.takeRequeue("ns/a"));
  EXPECT_FALSE(written.takeRequeue("ns/a"));  // asked once

  {
    WrittenObjects::PendingWrite failed = written.beginWrite("ns/b");
    EXPECT_TRUE(written.isActedOnEcho("ns/b", "9"));
  }
  EXPECT_TRUE(written.takeRequeue("ns/b"));
}

// A write made after a conflict did not act on the object it went onto: its early echo still
// asks for the reconcile it would have queued.
TEST(WrittenObjectsTest, AnEarlyEchoOfAWriteThatDidNotActOnItsObjectStillQueues) {
  WrittenObjects written;
  {
    WrittenObjects::PendingWrite status = written.beginWrite("ns/a");
    EXPECT_TRUE(written.isActedOnEcho("ns/a", "8"));
    status.record("7", *at("8"), /*acted_on=*/false);
  }
  EXPECT_TRUE(written.takeRequeue("ns/a"));
}

// Without a write in flight, an unknown event is not held: it queues a reconcile as before, and
// a write that was begun and abandoned leaves nothing behind.
TEST(WrittenObjectsTest, WithoutAWriteInFlightNothingIsHeld) {
  WrittenObjects written;
  EXPECT_FALSE(written.isActedOnEcho("ns/a", "3"));
  { WrittenObjects::PendingWrite unused = written.beginWrite("ns/a"); }
  EXPECT_FALSE(written.takeRequeue("ns/a"));
  EXPECT_EQ(written.size(), 0u);
}

}  // namespace
}  // namespace kf::sync
