#include "federation/election/leader_elector.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "federation/election/multi_lock.h"
#include "tests/support/fake_clock.h"
#include "tests/support/fake_event_recorder.h"
#include "tests/unit/election/fake_lock.h"

namespace kf {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;

template <class Pred>
bool waitUntil(Pred pred, milliseconds timeout = seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

LeaseRecord heldBy(const std::string& holder, std::int64_t seconds_long, WallTime renewed) {
  return LeaseRecord{.holder_identity = holder,
                     .lease_duration_seconds = seconds_long,
                     .acquire_time = renewed,
                     .renew_time = renewed,
                     .lease_transitions = 3};
}

// Defaults: lease 15s, renew deadline 10s, retry 5s.
class LeaderElectorTest : public ::testing::Test {
 protected:
  ~LeaderElectorTest() override { stop(); }

  LeaderElectionConfig config() {
    LeaderElectionConfig config;
    config.lock = &lock_;
    config.identity = "me";
    config.callbacks.on_started_leading = [this](std::stop_token token) {
      started_ = true;
      // Holds "controllers" running until leadership ends, as the real callback would.
      while (!token.stop_requested()) std::this_thread::sleep_for(milliseconds(1));
      controllers_stopped_ = true;
    };
    config.callbacks.on_stopped_leading = [this] {
      // Controllers must be gone before this runs.
      stopped_after_controllers_ = controllers_stopped_.load();
      stopped_leading_ = true;
    };
    config.callbacks.on_new_leader = [this](const std::string& identity) {
      MutexLock lock(leaders_mu_);
      leaders_.push_back(identity);
    };
    return config;
  }

  void start(LeaderElectionConfig c) {
    elector_ = std::make_unique<LeaderElector>(std::move(c), clock_);
    runner_ = std::jthread([this](std::stop_token token) {
      result_ = elector_->run(token);
      done_ = true;
    });
    ASSERT_TRUE(waitUntil([&] { return idle(); }));
  }
  void start() { start(config()); }

  // The elector is asleep on the clock (or has returned).
  bool idle() const { return done_ || clock_.pendingTimers() == 1; }

  // Advances the clock by one retry period and waits for the round it triggers to finish.
  void tick(Duration step = seconds(5)) {
    const int gets_before = lock_.gets();
    clock_.advance(step);
    ASSERT_TRUE(waitUntil([&] { return done_ || (lock_.gets() > gets_before && idle()); }));
  }

  void stop() {
    if (runner_.joinable()) {
      runner_.request_stop();
      runner_.join();
    }
  }

  std::vector<std::string> leaders() {
    MutexLock lock(leaders_mu_);
    return leaders_;
  }

  std::string holder() const { return lock_.record() ? lock_.record()->holder_identity : "<none>"; }

  test::FakeClock clock_;
  test::FakeLock lock_;
  // For tests that need them; the fixture stops the elector before they go.
  test::FakeLock secondary_{"Lease"};
  test::FakeEventRecorder recorder_;
  std::unique_ptr<MultiLock> multi_;
  std::unique_ptr<LeaderElector> elector_;
  std::jthread runner_;
  std::atomic<bool> done_{false};
  ElectionResult result_ = ElectionResult::kStopped;
  std::atomic<bool> started_{false};
  std::atomic<bool> controllers_stopped_{false};
  std::atomic<bool> stopped_leading_{false};
  std::atomic<bool> stopped_after_controllers_{false};
  Mutex leaders_mu_;
  std::vector<std::string> leaders_ KF_GUARDED_BY(leaders_mu_);
};

TEST_F(LeaderElectorTest, AcquiresAFreeLease) {
  start();
  ASSERT_TRUE(waitUntil([&] { return started_.load(); }));
  EXPECT_TRUE(elector_->isLeader());
  const LeaseRecord record = lock_.record().value();
  EXPECT_EQ(record.holder_identity, "me");
  EXPECT_EQ(record.lease_duration_seconds, 15);
  EXPECT_EQ(record.lease_transitions, 0);
  EXPECT_EQ(record.acquire_time, clock_.wallNow());
  EXPECT_EQ(record.renew_time, clock_.wallNow());
  EXPECT_THAT(leaders(), ::testing::ElementsAre("me"));
}

TEST_F(LeaderElectorTest, DoesNotTakeAHeldLeaseUntilItExpiresByObservedTime) {
  // The holder's renewTime is an hour old: a remote timestamp, so it must not count.
  lock_.set(heldBy("other", 15, clock_.wallNow() - hours(1)));
  start();
  tick();  // t=5
  tick();  // t=10
  EXPECT_EQ(holder(), "other");
  EXPECT_FALSE(started_);
  EXPECT_EQ(elector_->observedLeader(), "other");
  tick();  // t=15: unchanged for leaseDurationSeconds since first seen
  ASSERT_TRUE(waitUntil([&] { return started_.load(); }));
  const LeaseRecord record = lock_.record().value();
  EXPECT_EQ(record.holder_identity, "me");
  EXPECT_EQ(record.lease_transitions, 4);
  EXPECT_EQ(record.acquire_time, clock_.wallNow());
  EXPECT_THAT(leaders(), ::testing::ElementsAre("other", "me"));
}

TEST_F(LeaderElectorTest, AHoldersRenewalRestartsTheExpiryCount) {
  const WallTime start_wall = clock_.wallNow();
  lock_.set(heldBy("other", 15, start_wall));
  start();
  tick();  // t=5
  lock_.set(heldBy("other", 15, start_wall + seconds(7)));
  tick();  // t=10: sees the change
  tick();  // t=15
  tick();  // t=20
  EXPECT_EQ(holder(), "other");
  EXPECT_FALSE(started_);
  tick();  // t=25 = 10 + 15
  EXPECT_EQ(holder(), "me");
}

TEST_F(LeaderElectorTest, TakesAReleasedLeaseAtOnce) {
  LeaseRecord released = heldBy("", 1, clock_.wallNow());
  lock_.set(released);
  start();
  ASSERT_TRUE(waitUntil([&] { return started_.load(); }));
  EXPECT_EQ(holder(), "me");
  EXPECT_EQ(lock_.record()->lease_transitions, 4);
}

TEST_F(LeaderElectorTest, RenewsEveryRetryPeriod) {
  start();
  const WallTime acquired = clock_.wallNow();
  const int updates = lock_.updates();
  tick();
  tick();
  const LeaseRecord record = lock_.record().value();
  EXPECT_EQ(record.holder_identity, "me");
  EXPECT_EQ(record.acquire_time, acquired);
  EXPECT_EQ(record.renew_time, acquired + seconds(10));
  EXPECT_EQ(record.lease_transitions, 0);
  EXPECT_EQ(lock_.updates(), updates + 2);
  EXPECT_TRUE(elector_->isLeader());
  EXPECT_FALSE(done_);
}

TEST_F(LeaderElectorTest, GivesUpAfterTheRenewDeadlineAndStopsControllersFirst) {
  start();
  ASSERT_TRUE(waitUntil([&] { return started_.load(); }));
  lock_.setFailing(true);
  tick();  // t=5: failed, within the deadline
  EXPECT_FALSE(done_);
  EXPECT_TRUE(elector_->isLeader());
  tick();  // t=10: renew deadline reached
  ASSERT_TRUE(waitUntil([&] { return done_.load(); }));
  EXPECT_EQ(result_, ElectionResult::kLost);
  EXPECT_TRUE(stopped_leading_);
  EXPECT_TRUE(stopped_after_controllers_);
  EXPECT_FALSE(elector_->isLeader());
}

TEST_F(LeaderElectorTest, RecoversWhenARenewalFailsOnceWithinTheDeadline) {
  start();
  lock_.setFailing(true);
  tick();
  lock_.setFailing(false);
  tick();
  tick();
  tick();
  EXPECT_FALSE(done_);
  EXPECT_TRUE(elector_->isLeader());
  EXPECT_EQ(lock_.record()->renew_time, clock_.wallNow());
}

TEST_F(LeaderElectorTest, LosesAtOnceWhenAnotherCandidateHoldsTheLease) {
  start();
  lock_.set(heldBy("usurper", 15, clock_.wallNow()));
  tick();
  ASSERT_TRUE(waitUntil([&] { return done_.load(); }));
  EXPECT_EQ(result_, ElectionResult::kLost);
  EXPECT_EQ(holder(), "usurper");
}

TEST_F(LeaderElectorTest, AConflictingAcquireLeavesTheRivalLeading) {
  lock_.set(heldBy("", 1, clock_.wallNow()));
  lock_.rivalWritesBeforeNextUpdate([this](LeaseRecord record) {
    record.holder_identity = "rival";
    record.lease_duration_seconds = 15;
    record.renew_time = clock_.wallNow();
    return record;
  });
  start();
  EXPECT_EQ(holder(), "rival");
  EXPECT_FALSE(elector_->isLeader());
  tick();
  EXPECT_EQ(holder(), "rival");
  EXPECT_FALSE(started_);
  EXPECT_EQ(elector_->observedLeader(), "rival");
}

TEST_F(LeaderElectorTest, AConflictingRenewalIsRetried) {
  start();
  // A write that keeps us as holder (say, a label change) bumps the resourceVersion.
  lock_.rivalWritesBeforeNextUpdate([](LeaseRecord record) { return record; });
  tick();  // conflict
  EXPECT_TRUE(elector_->isLeader());
  tick();  // renewed from the fresh read
  EXPECT_EQ(lock_.record()->renew_time, clock_.wallNow());
  EXPECT_FALSE(done_);
}

TEST_F(LeaderElectorTest, StoppingReleasesTheLeaseWhenConfigured) {
  LeaderElectionConfig c = config();
  c.release_on_cancel = true;
  start(std::move(c));
  ASSERT_TRUE(waitUntil([&] { return started_.load(); }));
  stop();
  EXPECT_EQ(result_, ElectionResult::kStopped);
  EXPECT_TRUE(stopped_leading_);
  EXPECT_TRUE(stopped_after_controllers_);
  const LeaseRecord record = lock_.record().value();
  EXPECT_EQ(record.holder_identity, "");
  EXPECT_EQ(record.lease_duration_seconds, 1);
}

TEST_F(LeaderElectorTest, StoppingWithoutReleaseKeepsTheHolder) {
  start();
  stop();
  EXPECT_EQ(result_, ElectionResult::kStopped);
  EXPECT_EQ(holder(), "me");
}

TEST_F(LeaderElectorTest, StoppingWhileCampaigningCallsNoCallbacks) {
  lock_.set(heldBy("other", 15, clock_.wallNow()));
  start();
  stop();
  EXPECT_EQ(result_, ElectionResult::kStopped);
  EXPECT_FALSE(started_);
  EXPECT_FALSE(stopped_leading_);
}

// Verifies client-go's LeaderElection events on the lock object: "<identity> became leader" once
// leading, "<identity> stopped leading" once leadership ends.
TEST_F(LeaderElectorTest, RecordsLeaderElectionEventsOnTheLock) {
  test::FakeEventRecorder& recorder = recorder_;
  LeaderElectionConfig c = config();
  c.recorder = &recorder;
  start(std::move(c));
  ASSERT_TRUE(waitUntil([&] { return started_.load(); }));
  ASSERT_EQ(recorder.events().size(), 1u);
  const test::RecordedEvent became = recorder.events()[0];
  EXPECT_EQ(became.type, EventType::kNormal);
  EXPECT_EQ(became.reason, "LeaderElection");
  EXPECT_EQ(became.message, "me became leader");
  EXPECT_EQ(became.object.kind, "Lease");
  EXPECT_EQ(became.object.name, "lock");
  stop();
  ASSERT_EQ(recorder.events().size(), 2u);
  EXPECT_EQ(recorder.events()[1].message, "me stopped leading");
}

// Verifies losing leadership is recorded too.
TEST_F(LeaderElectorTest, RecordsStoppedLeadingWhenLeadershipIsLost) {
  test::FakeEventRecorder& recorder = recorder_;
  LeaderElectionConfig c = config();
  c.recorder = &recorder;
  start(std::move(c));
  lock_.set(heldBy("usurper", 15, clock_.wallNow()));
  tick();
  ASSERT_TRUE(waitUntil([&] { return done_.load(); }));
  EXPECT_THAT(recorder.reasons(), ::testing::ElementsAre("LeaderElection", "LeaderElection"));
  EXPECT_EQ(recorder.events()[1].message, "me stopped leading");
}

// Verifies, on a migration lock, that a holder renewing only the new (secondary) object keeps
// us waiting: the primary record never changes, but the lock as read does. Once the renewals
// stop, the lock expires a lease duration later and we take both objects.
TEST_F(LeaderElectorTest, AHolderRenewingOnlyTheSecondaryLockIsAlive) {
  test::FakeLock& secondary = secondary_;
  lock_.set(heldBy("go-replica", 15, clock_.wallNow()));
  secondary.set(heldBy("go-replica", 15, clock_.wallNow()));
  multi_ = std::make_unique<MultiLock>(std::make_unique<test::ForwardingLock>(lock_),
                                       std::make_unique<test::ForwardingLock>(secondary), "me");
  LeaderElectionConfig c = config();
  c.lock = multi_.get();
  start(std::move(c));
  for (int round = 1; round <= 6; ++round) {  // 30 s: twice the lease duration
    secondary.set(heldBy("go-replica", 15, clock_.wallNow()));
    tick();
    EXPECT_FALSE(started_) << "round " << round;
  }
  tick();  // t=35
  tick();  // t=40
  EXPECT_FALSE(started_);
  tick();  // t=45: 15 s after the last renewal was seen
  ASSERT_TRUE(waitUntil([&] { return started_.load(); }));
  EXPECT_EQ(lock_.record()->holder_identity, "me");
  EXPECT_EQ(secondary.record()->holder_identity, "me");
}

TEST_F(LeaderElectorTest, KeepsCampaigningThroughReadErrors) {
  lock_.setFailing(true);
  start();
  tick();
  EXPECT_FALSE(started_);
  lock_.setFailing(false);
  tick();
  ASSERT_TRUE(waitUntil([&] { return started_.load(); }));
  EXPECT_EQ(holder(), "me");
}

}  // namespace
}  // namespace kf
