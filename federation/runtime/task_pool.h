#pragma once
// A fixed set of threads for work that blocks or must not run on the caller's thread (member API
// calls, informer handler calls), shared by every controller so that the process's thread count
// depends on the pool sizes only, not on how many clusters and types there are.
//
// Work reaches a pool through lanes. A lane runs its tasks in submission order, at most
// `max_in_flight` at once, so a slow owner (a cluster that does not answer, a handler that takes
// its time) holds up only its own lane; other lanes go on as long as the pool has threads left.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace kf {

struct LaneBudget;

class TaskPool {
 public:
  // Starts `threads` threads (at least one), named `name` in logs.
  TaskPool(int threads, std::string name);
  // stop().
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  std::size_t threads() const;
  // The budget lanes with `key` share (null for ""): made on first use, gone with its last lane.
  std::shared_ptr<LaneBudget> budgetFor(const std::string& key);
  // Runs what is queued, then joins the threads. Later work is cancelled: a lane's queue when it
  // next needs a thread, on the thread that found the pool stopped (the submitting one, or the
  // one of the lane's last task). Lanes should be closed first. Idempotent. Called from a pool
  // thread (a task that ends the process), it leaves that thread to return on its own.
  void stop();

 private:
  friend class TaskLane;
  struct State;
  std::shared_ptr<State> state_;
};

// Blocking member-cluster I/O goes to a member I/O pool; informer handler calls, which are short,
// go to a dispatch pool, so that clusters that do not answer cannot delay the delivery of events.
// A task on one pool may wait for tasks of the other, never for tasks of its own pool: with every
// thread waiting, the awaited tasks would never run.
//
// Member API calls block for up to their request timeout, and every federated type has up to
// per_cluster_concurrency (default 4) of them in flight per cluster. Sixteen threads keep four
// clusters at that concurrency, or sixteen at one each, writing at once, which is about what the
// member clients' rate limits let through on a small control plane, while a fleet of any size
// costs no more threads. Lanes that share a budget key (a cluster's, across every federated
// type) have at most half the pool's threads in flight together, so that one cluster that does
// not answer, however many types are busy with it, leaves the other half to the others.
inline constexpr int kMemberIoThreads = 16;
// Handler calls only turn events into work-queue keys (they must not block): two threads keep
// delivery going while one handler is slow, and cost little on the small machines this runs on.
inline constexpr int kDispatchThreads = 2;

// The pools a process's controllers share. The controller manager makes them where it starts
// (cmd/) and passes them down; the pointers are never null there.
struct TaskPools {
  TaskPool* member_io = nullptr;
  TaskPool* dispatch = nullptr;
};

// The pools of a program that makes none of its own (tools, tests), started on first use and
// stopped at exit.
TaskPool& memberIoPool();
TaskPool& dispatchPool();
// `pool`, or the fallback above when it is null.
inline TaskPool& memberIo(TaskPool* pool) { return pool != nullptr ? *pool : memberIoPool(); }
inline TaskPool& dispatch(TaskPool* pool) { return pool != nullptr ? *pool : dispatchPool(); }

// A task is called exactly once: with `cancelled` false on a pool thread, or with `cancelled`
// true when its lane was closed before it ran (on the closing thread) or was already closed when
// it was submitted (on the submitting thread).
using LaneTask = std::function<void(bool cancelled)>;

class TaskLane {
 public:
  // The lane shares the pool's state, so either may go first; once the pool has stopped, the
  // lane's tasks are cancelled. `max_in_flight` is at least one. Lanes of one pool that give the
  // same non-empty `budget_key` also share a cap of half the pool's threads (at least one) on
  // their tasks in flight together; a lane that finds it spent waits its turn, in order, as the
  // others' tasks end.
  explicit TaskLane(TaskPool& pool, std::size_t max_in_flight = 1,
                    const std::string& budget_key = "");
  // close().
  ~TaskLane();
  TaskLane(const TaskLane&) = delete;
  TaskLane& operator=(const TaskLane&) = delete;

  void submit(LaneTask task);
  // Cancels the queued tasks and waits for the running ones to return, unless it is called from
  // one of them (then it returns at once and the others finish on their own). Later submits are
  // cancelled at once. Idempotent.
  void close();
  // close() without the wait, for callers that must not block (a registry listener): the running
  // tasks finish on their own, and a later close() still waits for them.
  void closeWithoutWaiting();
  // Tasks running now (for tests and metrics).
  std::size_t running() const;

 private:
  friend struct LaneBudget;  // keeps the lanes waiting for a place
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace kf
