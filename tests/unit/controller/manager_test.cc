// The Manager: start order, reverse stop order, a failed start rolled back, and leader gating
// (runnables that need leadership start only while leading; losing it stops them and ends run()).

#include "federation/controller/manager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/fake_clock.h"
#include "tests/unit/election/fake_lock.h"

namespace kf {
namespace {

using std::chrono::seconds;

// Records starts and stops of several runnables in one journal.
class Journal {
 public:
  RunnableFuncs runnable(const std::string& name, bool fail_start = false) {
    return RunnableFuncs(
        [this, name, fail_start]() -> Status {
          record("start " + name);
          if (fail_start) return makeError(Reason::kBadConfig, name + " cannot start");
          return boost::outcome_v2::success();
        },
        [this, name] { record("stop " + name); });
  }
  void record(std::string entry) {
    {
      MutexLock lock(mu_);
      entries_.push_back(std::move(entry));
    }
    cv_.notify_all();
  }
  std::vector<std::string> entries() const {
    MutexLock lock(mu_);
    return entries_;
  }
  bool waitFor(const std::string& entry) const {
    MutexLock lock(mu_);
    return cv_.wait_for(
        lock.native(), std::chrono::seconds(30), [&]() KF_NO_THREAD_SAFETY_ANALYSIS {
          return std::find(entries_.begin(), entries_.end(), entry) != entries_.end();
        });
  }

 private:
  mutable Mutex mu_;
  mutable std::condition_variable cv_;
  std::vector<std::string> entries_ KF_GUARDED_BY(mu_);
};

// Verifies runnables start in the order added and stop in reverse, the ones that need no
// leadership first.
TEST(ManagerTest, StartsInOrderAndStopsInReverse) {
  test::FakeClock clock;
  Journal journal;
  RunnableFuncs servers = journal.runnable("servers");
  RunnableFuncs caches = journal.runnable("caches");
  RunnableFuncs controller = journal.runnable("controller");
  Manager manager(std::nullopt, clock);
  manager.add(caches);
  manager.add(servers, /*needs_leader_election=*/false);
  manager.add(controller);
  std::stop_source stop;
  auto run = std::async(std::launch::async, [&] { return manager.run(stop.get_token()); });
  ASSERT_TRUE(journal.waitFor("start controller"));
  stop.request_stop();
  auto exit = run.get();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit.value(), ManagerExit::kStopped);
  EXPECT_EQ(journal.entries(),
            (std::vector<std::string>{"start servers", "start caches", "start controller",
                                      "stop controller", "stop caches", "stop servers"}));
}

// Verifies a runnable that fails to start stops the ones started before it and run() fails with
// its error.
TEST(ManagerTest, AFailedStartStopsWhatStartedAndFails) {
  test::FakeClock clock;
  Journal journal;
  RunnableFuncs first = journal.runnable("first");
  RunnableFuncs broken = journal.runnable("broken", /*fail_start=*/true);
  RunnableFuncs never = journal.runnable("never");
  Manager manager(std::nullopt, clock);
  manager.add(first);
  manager.add(broken);
  manager.add(never);
  std::stop_source stop;
  auto exit = manager.run(stop.get_token());
  ASSERT_FALSE(exit);
  EXPECT_EQ(exit.error().message, "broken cannot start");
  EXPECT_EQ(journal.entries(),
            (std::vector<std::string>{"start first", "start broken", "stop broken", "stop first"}));
}

class ManagerElectionTest : public ::testing::Test {
 protected:
  LeaderElectionConfig election() {
    LeaderElectionConfig config;
    config.lock = &lock_;
    config.identity = "me";
    config.lease_duration = seconds(15);
    config.renew_deadline = seconds(10);
    config.retry_period = seconds(2);
    return config;
  }

  test::FakeClock clock_;
  test::FakeLock lock_;
  Journal journal_;
};

// Verifies leader runnables wait for leadership while the others run at once, and losing the
// lease stops them and ends run() with kLeadershipLost.
TEST_F(ManagerElectionTest, LeaderRunnablesRunOnlyWhileLeading) {
  // Someone else holds the lease now.
  lock_.set(LeaseRecord{.holder_identity = "rival",
                        .lease_duration_seconds = 15,
                        .acquire_time = clock_.wallNow(),
                        .renew_time = clock_.wallNow()});
  RunnableFuncs servers = journal_.runnable("servers");
  RunnableFuncs controller = journal_.runnable("controller");
  Manager manager(election(), clock_);
  manager.add(servers, /*needs_leader_election=*/false);
  manager.add(controller);
  std::stop_source stop;
  auto run = std::async(std::launch::async, [&] { return manager.run(stop.get_token()); });
  ASSERT_TRUE(journal_.waitFor("start servers"));
  EXPECT_EQ(journal_.entries(), std::vector<std::string>{"start servers"});

  // The rival stops renewing: once the lease expires we take it over.
  while (journal_.entries().size() < 2) clock_.advance(seconds(1));
  ASSERT_TRUE(journal_.waitFor("start controller"));

  // The lease is taken away and renewals fail until the renew deadline.
  lock_.setFailing(true);
  while (run.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
    clock_.advance(seconds(1));
  }
  auto exit = run.get();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit.value(), ManagerExit::kLeadershipLost);
  EXPECT_EQ(journal_.entries(), (std::vector<std::string>{"start servers", "start controller",
                                                          "stop controller", "stop servers"}));
}

}  // namespace
}  // namespace kf
