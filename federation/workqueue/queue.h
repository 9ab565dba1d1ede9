#pragma once
// The base work queue: a FIFO of string keys with client-go's guarantees. A key waiting in the
// queue is stored once however often it is added, and a key handed out by get() is not handed
// out again until done() is called for it; adds that arrive meanwhile are remembered and the key
// is requeued by done().
//
// A named queue also reports client-go's work-queue metrics under its name
// (federation/metrics/workqueue_metrics.h), timed on its clock; an unnamed one reports nothing.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "federation/metrics/workqueue_metrics.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class Queue {
 public:
  Queue() = default;
  // `name` empty: unnamed.
  Queue(const std::string& name, const Clock& clock);
  // Keys still waiting leave the depth metric.
  virtual ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  // Queues `key` unless it is already waiting; ignored once shutting down.
  void add(const std::string& key) KF_EXCLUDES(mu_);
  // Blocks until a key is available and marks it as being processed. After shutdown it keeps
  // handing out keys still queued, then returns nullopt.
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
  std::deque<std::string> queue_ KF_GUARDED_BY(mu_);
  // Keys that need processing: everything in queue_, plus keys re-added while being processed;
  // with the time each became waiting (named queues only).
  std::unordered_map<std::string, SteadyTime> dirty_ KF_GUARDED_BY(mu_);
  // Keys handed out and not yet done, with the time each was handed out (named queues only).
  std::unordered_map<std::string, SteadyTime> processing_ KF_GUARDED_BY(mu_);
  bool shutting_down_ KF_GUARDED_BY(mu_) = false;
  const Clock* clock_ = nullptr;
  // Last: destroyed first, so that a scrape asking inProgress() finds every other member alive.
  std::unique_ptr<metrics::WorkqueueMetrics> metrics_;
};

}  // namespace kf
