#pragma once
// The base work queue: a FIFO of string keys with client-go's guarantees. A key waiting in the
// queue is stored once however often it is added, and a key handed out by get() is not handed
// out again until done() is called for it; adds that arrive meanwhile are remembered and the key
// is requeued by done().
//
// Keys have a priority (priority.h): get() hands out the oldest normal key first, and a backlog
// key only when no normal key waits. Adding a waiting key again keeps its place among the keys of
// its priority; with a more pressing priority it moves behind the keys waiting at that one.
// Without priorities (every key normal) this is client-go's FIFO.
//
// A named queue also reports client-go's work-queue metrics under its name
// (federation/metrics/workqueue_metrics.h), timed on its clock; an unnamed one reports nothing.

#include <array>
#include <condition_variable>
#include <cstddef>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "federation/metrics/workqueue_metrics.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"
#include "federation/workqueue/priority.h"

namespace kf {

struct QueuedKey {
  std::string key;
  Priority priority = Priority::kNormal;
};

class Queue {
 public:
  Queue() = default;
  // `name` empty: unnamed.
  Queue(const std::string& name, const Clock& clock);
  // Keys still waiting leave the depth metric.
  virtual ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  // Queues `key` unless it is already waiting (then only its priority may rise); ignored once
  // shutting down.
  void add(const std::string& key, Priority priority = Priority::kNormal) KF_EXCLUDES(mu_);
  // Blocks until a key is available and marks it as being processed: the oldest of the most
  // pressing priority. After shutdown it keeps handing out keys still queued, then returns
  // nullopt.
  std::optional<QueuedKey> getWithPriority() KF_EXCLUDES(mu_);
  // getWithPriority()'s key.
  std::optional<std::string> get() KF_EXCLUDES(mu_);
  // Ends processing of `key`; requeues it if it was added while being processed.
  void done(const std::string& key) KF_EXCLUDES(mu_);
  // Number of keys waiting to be handed out (not counting those being processed).
  std::size_t len() const KF_EXCLUDES(mu_);

  // Stops accepting keys and wakes every blocked get().
  virtual void shutDown() KF_EXCLUDES(mu_);
  // shutDown(), then blocks until every key being processed is done(). Must not be called from
  // a worker that still holds a key, or it waits for itself.
  virtual void shutDownWithDrain() KF_EXCLUDES(mu_);
  bool shuttingDown() const KF_EXCLUDES(mu_);

 private:
  metrics::WorkInProgress inProgress() const KF_EXCLUDES(mu_);

  mutable Mutex mu_;
  std::condition_variable item_ready_;  // a key was queued, or shutdown began
  std::condition_variable idle_;        // the last key being processed was done()
  using Fifo = std::list<std::string>;
  struct Entry {
    SteadyTime since;  // when it became waiting, or was handed out (named queues only)
    Priority priority = Priority::kNormal;
    // Where it waits in fifos_; none while it is being processed.
    std::optional<Fifo::iterator> position;
  };

  // Appends `key` to the fifo of `entry`'s priority.
  void pushLocked(const std::string& key, Entry& entry) KF_REQUIRES(mu_);
  // Raises `entry` to `priority` if that is more pressing, moving it to that fifo if it waits.
  void raiseLocked(Entry& entry, Priority priority) KF_REQUIRES(mu_);
  std::size_t waitingLocked() const KF_REQUIRES(mu_);

  // One fifo per priority, indexed by it: a list, so that a key can move to a more pressing one.
  std::array<Fifo, kPriorityLevels> fifos_ KF_GUARDED_BY(mu_);
  // Keys that need processing: everything in fifos_, plus keys re-added while being processed.
  std::unordered_map<std::string, Entry> dirty_ KF_GUARDED_BY(mu_);
  // Keys handed out and not yet done.
  std::unordered_map<std::string, Entry> processing_ KF_GUARDED_BY(mu_);
  bool shutting_down_ KF_GUARDED_BY(mu_) = false;
  const Clock* clock_ = nullptr;
  // Last: destroyed first, so that a scrape asking inProgress() finds every other member alive.
  std::unique_ptr<metrics::WorkqueueMetrics> metrics_;
};

}  // namespace kf
