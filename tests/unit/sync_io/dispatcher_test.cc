#include "sync/io/dispatcher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <vector>

#include "tests/support/fake_clock.h"
#include "tests/support/waiting.h"

namespace kf::sync {
namespace {

using std::chrono::seconds;
using test::Counter;
using test::FakeClock;
using test::Gate;
using test::kHangLimit;

constexpr Duration kTimeout = seconds(30);

// Operations block on gate_ and report through the counters; the pool and the executors are
// declared last so that the executors wait for their operations before anything those use goes
// away.
class DispatcherTest : public ::testing::Test {
 protected:
  FakeClock clock_;
  Gate gate_;
  Counter started_;
  Counter done_;
  TaskPool pool_{4, "executors"};
  ClusterExecutors executors_{pool_, 2};
};

TEST_F(DispatcherTest, WithoutOperationsReturnsAtOnce) {
  Dispatcher dispatcher(executors_, clock_, kTimeout);
  const DispatchOutcome outcome = dispatcher.wait();
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_TRUE(outcome.clusters.empty());
}

TEST_F(DispatcherTest, FinishedOperationsResolveTheirProvisionalStatuses) {
  Dispatcher dispatcher(executors_, clock_, kTimeout);
  dispatcher.dispatch("created", OperationKind::kCreate, [](OperationReport& report) {
    report.recordVersion("rv:10");
    report.sawObject(Json{{"status", {{"phase", "Active"}}}});
  });
  dispatcher.dispatch("updated", OperationKind::kUpdate, [](OperationReport& report) {
    report.recordVersion("gen:3");
    report.markResourcesUpdated();
  });
  dispatcher.dispatch("deleted", OperationKind::kDelete, [](OperationReport&) {});
  dispatcher.dispatch("unlabeled", OperationKind::kRemoveManagedLabel, [](OperationReport&) {});
  dispatcher.recordStatus("unready", PropagationStatus::kClusterNotReady);

  const DispatchOutcome outcome = dispatcher.wait();
  EXPECT_FALSE(outcome.timed_out);
  ASSERT_EQ(outcome.clusters.size(), 4u);
  EXPECT_EQ(outcome.clusters.at("created").status, PropagationStatus::kOk);
  EXPECT_EQ(outcome.clusters.at("created").remote_status, Json({{"phase", "Active"}}));
  EXPECT_EQ(outcome.clusters.at("updated").status, PropagationStatus::kOk);
  EXPECT_FALSE(outcome.clusters.at("updated").remote_status.has_value());
  EXPECT_EQ(outcome.clusters.at("deleted").status, PropagationStatus::kWaitingForRemoval);
  EXPECT_FALSE(outcome.clusters.contains("unlabeled"));
  EXPECT_EQ(outcome.clusters.at("unready").status, PropagationStatus::kClusterNotReady);
  EXPECT_EQ(outcome.versions,
            (std::map<std::string, std::string>{{"created", "rv:10"}, {"updated", "gen:3"}}));
  EXPECT_TRUE(outcome.resources_updated);
}

TEST_F(DispatcherTest, AFailureReplacesTheProvisionalStatus) {
  Dispatcher dispatcher(executors_, clock_, kTimeout);
  dispatcher.dispatch("a", OperationKind::kCreate, [](OperationReport& report) {
    report.fail(PropagationStatus::kCreationFailed);
  });
  dispatcher.dispatch("b", OperationKind::kRemoveManagedLabel, [](OperationReport& report) {
    report.fail(PropagationStatus::kLabelRemovalFailed);
  });
  const DispatchOutcome outcome = dispatcher.wait();
  EXPECT_EQ(outcome.clusters.at("a").status, PropagationStatus::kCreationFailed);
  EXPECT_EQ(outcome.clusters.at("b").status, PropagationStatus::kLabelRemovalFailed);
  EXPECT_FALSE(outcome.resources_updated);
}

TEST_F(DispatcherTest, AnObjectWithoutStatusGivesANullRemoteStatus) {
  Dispatcher dispatcher(executors_, clock_, kTimeout);
  dispatcher.dispatch("a", OperationKind::kUpdate, [](OperationReport& report) {
    report.sawObject(Json{{"data", {}}});
  });
  const DispatchOutcome outcome = dispatcher.wait();
  ASSERT_TRUE(outcome.clusters.at("a").remote_status.has_value());
  EXPECT_TRUE(outcome.clusters.at("a").remote_status->is_null());
}

TEST_F(DispatcherTest, AnAdoptingCreateThatTimesOutReportsUpdateTimedOut) {
  Dispatcher dispatcher(executors_, clock_, kTimeout);
  dispatcher.dispatch("a", OperationKind::kCreate, [&](OperationReport& report) {
    report.continueAs(OperationKind::kUpdate);
    started_.add();
    EXPECT_TRUE(gate_.pass());
  });
  ASSERT_TRUE(started_.waitFor(1));
  clock_.advance(kTimeout);
  const DispatchOutcome outcome = dispatcher.wait();
  gate_.open();
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_EQ(outcome.clusters.at("a").status, PropagationStatus::kUpdateTimedOut);
}

// KubeFed's rule: after a timeout nothing is resolved, not even the operations that finished,
// and what arrives late is ignored.
TEST_F(DispatcherTest, PastTheDeadlineStatusesStayProvisionalAndLateResultsAreIgnored) {
  DispatchOutcome outcome;
  {
    Dispatcher dispatcher(executors_, clock_, kTimeout);
    dispatcher.dispatch("slow", OperationKind::kCreate, [&](OperationReport& report) {
      started_.add();
      EXPECT_TRUE(gate_.pass());
      report.recordVersion("rv:late");
      report.fail(PropagationStatus::kCreationFailed);
      done_.add();
    });
    dispatcher.dispatch("fast", OperationKind::kDelete, [&](OperationReport& report) {
      report.recordVersion("rv:fast");
      done_.add();
    });
    ASSERT_TRUE(started_.waitFor(1));
    ASSERT_TRUE(done_.waitFor(1));
    clock_.advance(kTimeout - seconds(1));
    clock_.advance(seconds(1));
    outcome = dispatcher.wait();
  }
  gate_.open();
  ASSERT_TRUE(done_.waitFor(2));
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_EQ(outcome.clusters.at("slow").status, PropagationStatus::kCreationTimedOut);
  EXPECT_EQ(outcome.clusters.at("fast").status, PropagationStatus::kDeletionTimedOut);
  EXPECT_EQ(outcome.versions, (std::map<std::string, std::string>{{"fast", "rv:fast"}}));
}

TEST_F(DispatcherTest, OperationsQueuedBehindASlowClusterAreDroppedAfterTheDeadline) {
  std::atomic<bool> queued_ran{false};
  ClusterExecutors one_per_cluster(pool_, 1);
  Dispatcher first(one_per_cluster, clock_, kTimeout);
  first.dispatch("a", OperationKind::kUpdate, [&](OperationReport&) {
    started_.add();
    EXPECT_TRUE(gate_.pass());
  });
  ASSERT_TRUE(started_.waitFor(1));
  Dispatcher second(one_per_cluster, clock_, kTimeout);
  second.dispatch("a", OperationKind::kUpdate, [&](OperationReport&) { queued_ran = true; });
  second.dispatch("b", OperationKind::kUpdate, [](OperationReport&) {});

  clock_.advance(kTimeout);
  const DispatchOutcome outcome = second.wait();
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_EQ(outcome.clusters.at("a").status, PropagationStatus::kUpdateTimedOut);
  gate_.open();
  first.wait();
  one_per_cluster.stop();  // waits: the queued operation has been handled by now
  EXPECT_FALSE(queued_ran);
}

// Before the health check calls a frozen cluster not Ready, each reconcile that includes it would
// hold its worker for the whole deadline; the wait stops once the cluster has answered nothing
// for kUnresponsiveAfter, with the statuses a deadline leaves.
TEST_F(DispatcherTest, TheWaitStopsWaitingForAClusterThatAnswersNothing) {
  ClusterExecutors executors(pool_, 2, clock_);
  DispatchOutcome outcome;
  {
    Dispatcher dispatcher(executors, clock_, kTimeout);
    dispatcher.dispatch("frozen", OperationKind::kCreate, [&](OperationReport&) {
      started_.add();
      EXPECT_TRUE(gate_.pass());
    });
    dispatcher.dispatch("answering", OperationKind::kUpdate, [&](OperationReport& report) {
      report.recordVersion("rv:1");
      done_.add();
    });
    ASSERT_TRUE(started_.waitFor(1));
    ASSERT_TRUE(done_.waitFor(1));
    auto waited = std::async(std::launch::async, [&] { return dispatcher.wait(); });
    clock_.advance(kUnresponsiveAfter);
    const bool stopped_waiting = waited.wait_for(kHangLimit) == std::future_status::ready;
    if (!stopped_waiting) {
      clock_.advance(kTimeout);  // lets the wait end, so that the test can fail
    }
    outcome = waited.get();
    EXPECT_TRUE(stopped_waiting) << "the wait held on to the frozen cluster until the deadline";
  }
  gate_.open();
  executors.stop();
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_EQ(outcome.unresponsive, std::vector<std::string>{"frozen"});
  EXPECT_EQ(outcome.clusters.at("frozen").status, PropagationStatus::kCreationTimedOut);
  EXPECT_EQ(outcome.versions, (std::map<std::string, std::string>{{"answering", "rv:1"}}));
}

TEST_F(DispatcherTest, OperationsCancelledByAStoppedExecutorCountAsUnfinished) {
  executors_.stop();
  Dispatcher dispatcher(executors_, clock_, kTimeout);
  std::atomic<bool> ran{false};
  dispatcher.dispatch("a", OperationKind::kCreate, [&](OperationReport&) { ran = true; });
  const DispatchOutcome outcome = dispatcher.wait();
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_EQ(outcome.clusters.at("a").status, PropagationStatus::kCreationTimedOut);
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace kf::sync
