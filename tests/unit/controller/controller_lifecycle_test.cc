// The order a controller starts and stops its parts in (workers, then sources; sources, then the
// reconciler's cancel, then the workers, then the reconciler and the sources), a reconciler's own
// requeue delay, and runnables started and stopped as a group.

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "federation/controller/builder.h"
#include "federation/controller/controller.h"
#include "federation/controller/runnable.h"
#include "tests/unit/controller/worker_test_support.h"

namespace kf {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test::kOk;
using test::ReconcileLog;
using test::TimerWatchingClock;

// What happened, in order, across threads.
class LifecycleJournal {
 public:
  void record(std::string entry) {
    MutexLock lock(mu_);
    entries_.push_back(std::move(entry));
  }
  std::vector<std::string> entries() const {
    MutexLock lock(mu_);
    return entries_;
  }

 private:
  mutable Mutex mu_;
  std::vector<std::string> entries_ KF_GUARDED_BY(mu_);
};

// A source that records its start, stop and destruction. Its start queues `key_on_start` and
// waits (with a deadline) until the workers reconciled it: it can only return true if the
// workers run before the sources start.
class JournalingSource final : public Source {
 public:
  JournalingSource(std::string name, LifecycleJournal& journal, ReconcileLog& log,
                   std::string key_on_start = "")
      : name_(std::move(name)),
        journal_(journal),
        log_(log),
        key_on_start_(std::move(key_on_start)) {}
  ~JournalingSource() override { journal_.record("destroy " + name_); }

  void start(EnqueueTarget& target, Handler handler) override {
    journal_.record("start " + name_);
    if (key_on_start_.empty()) return;
    const Json object = {{"metadata", {{"name", key_on_start_}}}};
    handler.deliver(&object, target);
    reconciled_on_start_ = log_.waitForCount(key_on_start_, 1);
  }
  void stop() override { journal_.record("stop " + name_); }
  bool synced() const override { return true; }

  bool reconciledOnStart() const { return reconciled_on_start_; }

 private:
  const std::string name_;
  LifecycleJournal& journal_;
  ReconcileLog& log_;
  const std::string key_on_start_;
  std::atomic<bool> reconciled_on_start_{false};
};

// A reconciler that records its cancel and its destruction, and whether a reconcile was still
// running when it was destroyed.
class JournalingReconciler final : public Reconciler {
 public:
  JournalingReconciler(LifecycleJournal& journal, ReconcileLog& log)
      : journal_(journal), log_(log) {}
  ~JournalingReconciler() override {
    journal_.record(running_ > 0 ? "destroy reconciler while reconciling" : "destroy reconciler");
  }
  ReconcileResult reconcile(const std::string& key) override {
    ++running_;
    ReconcileResult result = log_.func()(key);
    --running_;
    return result;
  }
  void cancel() override { journal_.record("cancel reconciler"); }

 private:
  LifecycleJournal& journal_;
  ReconcileLog& log_;
  std::atomic<int> running_{0};
};

// Verifies the start order (workers, then each source in the order added: the first source's
// key is reconciled while it starts) and the stop order: every source stops, then the reconciler
// is told to cancel, then, the workers joined, the reconciler goes before the sources.
TEST(ControllerLifecycleTest, WorkersStartBeforeSourcesAndSourcesStopBeforeTheReconcilerGoes) {
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  LifecycleJournal journal;
  auto first = std::make_unique<JournalingSource>("first", journal, log, "from-first");
  JournalingSource& first_source = *first;
  ControllerPtr controller =
      ControllerBuilder("controller-lifecycle-test", clock)
          .watches(std::move(first), enqueueObject())
          .watches(std::make_unique<JournalingSource>("second", journal, log), enqueueObject())
          .watches(nullptr, enqueueObject())  // skipped
          .complete(std::make_unique<JournalingReconciler>(journal, log));
  ASSERT_TRUE(controller->start());
  EXPECT_TRUE(first_source.reconciledOnStart());
  EXPECT_EQ(journal.entries(), (std::vector<std::string>{"start first", "start second"}));

  controller->stop();
  EXPECT_EQ(journal.entries(),
            (std::vector<std::string>{"start first", "start second", "stop first", "stop second",
                                      "cancel reconciler", "destroy reconciler", "destroy first",
                                      "destroy second"}));
  controller->stop();  // idempotent
  EXPECT_EQ(journal.entries().size(), 8U);
}

// Verifies a controller that never started still stops its sources and drops its parts.
TEST(ControllerLifecycleTest, AControllerNeverStartedStopsAndDropsItsParts) {
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  LifecycleJournal journal;
  {
    ControllerPtr controller =
        ControllerBuilder("controller-unstarted-test", clock)
            .watches(std::make_unique<JournalingSource>("only", journal, log), enqueueObject())
            .complete(std::make_unique<JournalingReconciler>(journal, log));
  }
  EXPECT_EQ(journal.entries(), (std::vector<std::string>{"stop only", "cancel reconciler",
                                                         "destroy reconciler", "destroy only"}));
}

// Verifies a reconciler's own delay: the key comes back exactly that long after its reconcile,
// not sooner, and its failure backoff starts over (the next failure waits the initial 5 s).
TEST(ControllerRequeueAfterTest, AKeyComesBackAfterTheDelayItsReconcileAskedFor) {
  TimerWatchingClock clock;
  ReconcileLog log(clock, kOk);
  log.script("a", {test::kError, ReconcileStatus::requeueAfter(seconds(7)), test::kError, kOk});
  ControllerPtr controller = ControllerBuilder("controller-requeue-after-test", clock)
                                 .delays(seconds(1), seconds(2))
                                 .complete(std::make_unique<ReconcilerFunc>(log.func()));
  ASSERT_TRUE(controller->start());
  controller->enqueue("a");
  ASSERT_TRUE(log.waitForCount("a", 1));
  ASSERT_TRUE(clock.waitForArmedTimers(1));
  clock.advance(seconds(5));  // the first failure's backoff
  ASSERT_TRUE(log.waitForCount("a", 2));
  ASSERT_TRUE(clock.waitForArmedTimers(2));
  clock.advance(seconds(7) - milliseconds(1));
  controller->enqueue("sentinel");
  ASSERT_TRUE(log.waitForCount("sentinel", 1));
  EXPECT_EQ(log.count("a"), 2U) << "back before its delay";
  clock.advance(milliseconds(1));
  ASSERT_TRUE(log.waitForCount("a", 3));
  ASSERT_TRUE(clock.waitForArmedTimers(3));
  clock.advance(seconds(5));  // not 10 s: the requeue reset the backoff
  ASSERT_TRUE(log.waitForCount("a", 4));
  const std::vector<SteadyTime> times = log.times("a");
  EXPECT_EQ(times[2] - times[1], seconds(7));
  EXPECT_EQ(times[3] - times[2], seconds(5));
  controller->stop();
}

// Records the start and stop of each member of a group in one journal.
class JournalingRunnable final : public Runnable {
 public:
  JournalingRunnable(std::string name, LifecycleJournal& journal, bool fail_start = false)
      : name_(std::move(name)), journal_(journal), fail_start_(fail_start) {}
  Status start() override {
    journal_.record("start " + name_);
    if (fail_start_) return makeError(Reason::kBadConfig, name_ + " cannot start");
    return boost::outcome_v2::success();
  }
  void stop() override { journal_.record("stop " + name_); }

 private:
  const std::string name_;
  LifecycleJournal& journal_;
  const bool fail_start_;
};

std::vector<RunnablePtr> membersOf(LifecycleJournal& journal, bool second_fails = false) {
  std::vector<RunnablePtr> members;
  members.push_back(std::make_unique<JournalingRunnable>("a", journal));
  members.push_back(std::make_unique<JournalingRunnable>("b", journal, second_fails));
  members.push_back(std::make_unique<JournalingRunnable>("c", journal));
  return members;
}

// Verifies a group starts its members in order and stops them in reverse, once.
TEST(RunnableGroupTest, StartsInOrderAndStopsInReverseOnce) {
  LifecycleJournal journal;
  RunnableGroup group(membersOf(journal));
  ASSERT_TRUE(group.start());
  group.stop();
  group.stop();
  EXPECT_EQ(journal.entries(), (std::vector<std::string>{"start a", "start b", "start c", "stop c",
                                                         "stop b", "stop a"}));
}

// Verifies a member that fails to start fails the group, with the ones started stopped again.
TEST(RunnableGroupTest, AFailedStartStopsWhatStarted) {
  LifecycleJournal journal;
  RunnableGroup group(membersOf(journal, /*second_fails=*/true));
  const Status started = group.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message, "b cannot start");
  EXPECT_EQ(journal.entries(),
            (std::vector<std::string>{"start a", "start b", "stop b", "stop a"}));
}

}  // namespace
}  // namespace kf
