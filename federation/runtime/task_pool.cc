#include "federation/runtime/task_pool.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "federation/runtime/thread_annotations.h"
#include "federation/runtime/thread_name.h"

namespace kf {

namespace {

// "member-io-3": the pool's name, shortened to leave room for the index in Linux's 15 characters.
void namePoolThread(const std::string& pool, std::size_t index) {
  nameThisThread(pool.substr(0, 11) + "-" + std::to_string(index));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The pool: threads that run jobs in the order they were posted.

struct TaskPool::State {
  explicit State(std::string pool_name) : name(std::move(pool_name)) {}

  // False once the pool stops: the job was not queued.
  bool post(std::function<void()> job) KF_EXCLUDES(mu) {
    {
      MutexLock lock(mu);
      if (stopping) {
        return false;
      }
      jobs.push_back(std::move(job));
    }
    work_cv.notify_one();
    return true;
  }

  void runThread(std::size_t index) KF_EXCLUDES(mu);

  const std::string name;
  Mutex mu;
  std::condition_variable work_cv;
  std::deque<std::function<void()>> jobs KF_GUARDED_BY(mu);
  bool stopping KF_GUARDED_BY(mu) = false;
  // Held by stop() while it joins, so that a second caller returns only once they are joined.
  Mutex join_mu;
  std::vector<std::thread> threads KF_GUARDED_BY(join_mu);
  // The budgets lanes share by key, alive while a lane holds one.
  Mutex budgets_mu;
  std::map<std::string, std::weak_ptr<LaneBudget>> budgets KF_GUARDED_BY(budgets_mu);
};

namespace {

// The pool whose thread this is, so that stop() can tell it is called from one of its own.
thread_local const void* current_pool = nullptr;

}  // namespace

void TaskPool::State::runThread(std::size_t index) {
  current_pool = this;
  namePoolThread(name, index);
  while (true) {
    std::function<void()> job;
    {
      MutexLock lock(mu);
      work_cv.wait(lock.native(), [this]() KF_REQUIRES(mu) { return stopping || !jobs.empty(); });
      if (jobs.empty()) {
        return;  // stopping, and everything queued has run
      }
      job = std::move(jobs.front());
      jobs.pop_front();
    }
    job();
  }
}

TaskPool::TaskPool(int threads, std::string name)
    : state_(std::make_shared<State>(std::move(name))) {
  const auto count = static_cast<std::size_t>(std::max(1, threads));
  MutexLock lock(state_->join_mu);
  for (std::size_t index = 0; index < count; ++index) {
    state_->threads.emplace_back([state = state_, index] { state->runThread(index); });
  }
}

TaskPool::~TaskPool() { stop(); }

std::size_t TaskPool::threads() const {
  MutexLock lock(state_->join_mu);
  return state_->threads.size();
}

void TaskPool::stop() {
  {
    MutexLock lock(state_->mu);
    state_->stopping = true;
  }
  state_->work_cv.notify_all();
  MutexLock lock(state_->join_mu);
  for (std::thread& thread : state_->threads) {
    if (!thread.joinable()) {
      continue;
    }
    // A task that ends the process stops the pool from its own thread: that thread cannot join
    // itself; it holds the state through its closure and returns once the task does.
    if (current_pool == state_.get() && thread.get_id() == std::this_thread::get_id()) {
      thread.detach();
    } else {
      thread.join();
    }
  }
}

TaskPool& memberIoPool() {
  static TaskPool pool(kMemberIoThreads, "member-io");
  return pool;
}

TaskPool& dispatchPool() {
  static TaskPool pool(kDispatchThreads, "dispatch");
  return pool;
}

// ---------------------------------------------------------------------------------------------
// Budgets: a cap on the pool jobs (posted or running) of the lanes that share one. A lane that
// finds it spent waits in line; each job that ends gives its place to the first lane in line that
// still has work.

struct LaneBudget {
  explicit LaneBudget(std::size_t cap) : limit(std::max<std::size_t>(1, cap)) {}

  // Takes a place when one is free, else puts `lane` in line unless it is there already: under
  // one lock, so that no place given back in between goes unoffered.
  bool takeOrWait(const std::weak_ptr<TaskLane::State>& lane, bool in_line) KF_EXCLUDES(mu) {
    MutexLock lock(mu);
    if (used < limit) {
      ++used;
      return true;
    }
    if (!in_line) waiting.push_back(lane);
    return false;
  }
  void wait(std::weak_ptr<TaskLane::State> lane) KF_EXCLUDES(mu) {
    MutexLock lock(mu);
    waiting.push_back(std::move(lane));
  }
  // Gives a place back; the lanes then in line, to offer it to in order.
  std::deque<std::weak_ptr<TaskLane::State>> give() KF_EXCLUDES(mu) {
    MutexLock lock(mu);
    --used;
    std::deque<std::weak_ptr<TaskLane::State>> out;
    out.swap(waiting);
    return out;
  }
  // The lanes in line when a place is free (one given back while an earlier line was offered).
  std::deque<std::weak_ptr<TaskLane::State>> lineIfPlaceFree() KF_EXCLUDES(mu) {
    MutexLock lock(mu);
    std::deque<std::weak_ptr<TaskLane::State>> out;
    if (used < limit) out.swap(waiting);
    return out;
  }

  const std::size_t limit;
  Mutex mu;
  std::size_t used KF_GUARDED_BY(mu) = 0;
  std::deque<std::weak_ptr<TaskLane::State>> waiting KF_GUARDED_BY(mu);
};

std::shared_ptr<LaneBudget> TaskPool::budgetFor(const std::string& key) {
  if (key.empty()) return nullptr;
  const std::size_t cap = std::max<std::size_t>(1, threads() / 2);
  MutexLock lock(state_->budgets_mu);
  std::erase_if(state_->budgets, [](const auto& entry) { return entry.second.expired(); });
  std::weak_ptr<LaneBudget>& slot = state_->budgets[key];
  std::shared_ptr<LaneBudget> budget = slot.lock();
  if (!budget) {
    budget = std::make_shared<LaneBudget>(cap);
    slot = budget;
  }
  return budget;
}

// ---------------------------------------------------------------------------------------------
// Lanes: each keeps its own queue and posts one pool job per task it may start now.

struct TaskLane::State : std::enable_shared_from_this<TaskLane::State> {
  State(std::shared_ptr<TaskPool::State> task_pool, std::size_t limit,
        std::shared_ptr<LaneBudget> shared_budget)
      : pool(std::move(task_pool)),
        max_in_flight(std::max<std::size_t>(1, limit)),
        budget(std::move(shared_budget)) {}

  void submit(LaneTask task) KF_EXCLUDES(mu);
  void closeQueue() KF_EXCLUDES(mu);
  void waitForRunning() KF_EXCLUDES(mu);

  // Takes a slot for one more pool job if a queued task has none and the limits allow it; a
  // spent budget puts the lane in its line.
  bool claimSlotLocked() KF_REQUIRES(mu);
  void postJob() KF_EXCLUDES(mu);
  // The pool job: runs the task at the head of the queue, then posts the next one.
  void runNext() KF_EXCLUDES(mu);
  // The pool stopped before `postJob` could post: nothing queued here will ever run.
  void cancelForStoppedPool() KF_EXCLUDES(mu);
  // A job of this lane ended (or never ran): its budget place goes to the lanes in line.
  void releaseBudget() KF_EXCLUDES(mu);
  // Offered a budget place: whether the lane took it (and posted a job).
  bool offered() KF_EXCLUDES(mu);

  const std::shared_ptr<TaskPool::State> pool;
  const std::size_t max_in_flight;
  const std::shared_ptr<LaneBudget> budget;  // null: no cap shared with other lanes
  Mutex mu;
  bool in_budget_line KF_GUARDED_BY(mu) = false;
  std::condition_variable idle_cv;  // notified when `running` drops to zero
  std::deque<LaneTask> queue KF_GUARDED_BY(mu);
  std::size_t posted KF_GUARDED_BY(mu) = 0;  // jobs posted to the pool that have not started
  std::size_t running KF_GUARDED_BY(mu) = 0;
  bool closed KF_GUARDED_BY(mu) = false;
};

namespace {

// The lane whose task runs on this thread now, so that close() can tell it is called from one.
thread_local const void* current_lane = nullptr;

class RunningLaneMark {
 public:
  explicit RunningLaneMark(const void* lane) : previous_(current_lane) { current_lane = lane; }
  ~RunningLaneMark() { current_lane = previous_; }
  RunningLaneMark(const RunningLaneMark&) = delete;
  RunningLaneMark& operator=(const RunningLaneMark&) = delete;

 private:
  const void* previous_;
};

void cancelAll(std::deque<LaneTask>& tasks) {
  for (LaneTask& task : tasks) {
    task(true);
  }
  tasks.clear();  // what the tasks hold goes before the caller goes on
}

}  // namespace

void TaskLane::State::submit(LaneTask task) {
  LaneTask rejected;  // called outside the lock
  bool post_job = false;
  {
    MutexLock lock(mu);
    if (closed) {
      rejected = std::move(task);
    } else {
      queue.push_back(std::move(task));
      post_job = claimSlotLocked();
    }
  }
  if (rejected) {
    rejected(true);
    return;
  }
  if (post_job) {
    postJob();
  }
}

bool TaskLane::State::claimSlotLocked() {
  if (closed || queue.size() <= posted || running + posted >= max_in_flight) {
    return false;
  }
  if (budget && !budget->takeOrWait(weak_from_this(), in_budget_line)) {
    in_budget_line = true;
    return false;
  }
  ++posted;
  return true;
}

void TaskLane::State::releaseBudget() {
  if (!budget) return;
  std::deque<std::weak_ptr<State>> line = budget->give();
  while (!line.empty()) {
    // The first lane in line that can start a task takes the place. Those asked before it leave
    // the line: they have nothing queued, or their own limit is reached and a task of theirs
    // that ends makes them claim again. Those after it stay in line.
    while (!line.empty()) {
      std::shared_ptr<State> lane = line.front().lock();
      line.pop_front();
      if (lane && lane->offered()) break;
    }
    for (auto& waiting : line) budget->wait(std::move(waiting));
    line = budget->lineIfPlaceFree();
  }
}

bool TaskLane::State::offered() {
  bool post_job = false;
  {
    MutexLock lock(mu);
    in_budget_line = false;
    post_job = claimSlotLocked();
  }
  if (post_job) postJob();
  return post_job;
}

void TaskLane::State::postJob() {
  if (!pool->post([lane = shared_from_this()] { lane->runNext(); })) {
    cancelForStoppedPool();
  }
}

void TaskLane::State::runNext() {
  LaneTask task;
  {
    MutexLock lock(mu);
    --posted;
    if (!queue.empty()) {
      task = std::move(queue.front());
      queue.pop_front();
      ++running;
    }
  }
  if (!task) {
    releaseBudget();
    return;  // closed after the job was posted
  }
  {
    RunningLaneMark mark(this);
    task(false);
    task = nullptr;  // what it holds goes before close() may return
  }
  {
    MutexLock lock(mu);
    --running;
  }
  // The lanes in line are offered the place first, then this lane claims again: lanes sharing a
  // budget take turns.
  releaseBudget();
  bool post_job = false;
  {
    MutexLock lock(mu);
    post_job = claimSlotLocked();
    if (running == 0) {
      idle_cv.notify_all();
    }
  }
  if (post_job) {
    postJob();
  }
}

void TaskLane::State::cancelForStoppedPool() {
  std::deque<LaneTask> cancelled;
  {
    MutexLock lock(mu);
    --posted;
    cancelled.swap(queue);
  }
  releaseBudget();
  cancelAll(cancelled);
}

void TaskLane::State::closeQueue() {
  std::deque<LaneTask> cancelled;
  {
    MutexLock lock(mu);
    closed = true;
    cancelled.swap(queue);
  }
  cancelAll(cancelled);
}

void TaskLane::State::waitForRunning() {
  if (current_lane == this) {
    return;  // called from one of this lane's tasks, which cannot wait for itself
  }
  MutexLock lock(mu);
  idle_cv.wait(lock.native(), [this]() KF_REQUIRES(mu) { return running == 0; });
}

TaskLane::TaskLane(TaskPool& pool, std::size_t max_in_flight, const std::string& budget_key)
    : state_(std::make_shared<State>(pool.state_, max_in_flight, pool.budgetFor(budget_key))) {}

TaskLane::~TaskLane() { close(); }

void TaskLane::submit(LaneTask task) { state_->submit(std::move(task)); }

void TaskLane::close() {
  state_->closeQueue();
  state_->waitForRunning();
}

void TaskLane::closeWithoutWaiting() { state_->closeQueue(); }

std::size_t TaskLane::running() const {
  MutexLock lock(state_->mu);
  return state_->running;
}

}  // namespace kf
