#pragma once
// Small synchronisation helpers for tests whose code under test runs on its own threads: a gate
// that blocked tasks wait on until the test opens it, and a counter the test waits on. Waits end
// on the event; the deadline only turns a hang into a failure.

#include <chrono>
#include <condition_variable>
#include <set>
#include <thread>

#include "federation/runtime/thread_annotations.h"

namespace kf::test {

inline constexpr std::chrono::seconds kHangLimit{10};

class Gate {
 public:
  void open() {
    MutexLock lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  // False when the gate stayed closed for kHangLimit.
  bool pass() {
    MutexLock lock(mu_);
    return cv_.wait_for(lock.native(), kHangLimit,
                        [this]() KF_NO_THREAD_SAFETY_ANALYSIS { return open_; });
  }

 private:
  Mutex mu_;
  std::condition_variable cv_;
  bool open_ KF_GUARDED_BY(mu_) = false;
};

class Counter {
 public:
  void add(int delta = 1) {
    MutexLock lock(mu_);
    value_ += delta;
    peak_ = std::max(peak_, value_);
    cv_.notify_all();
  }
  int value() {
    MutexLock lock(mu_);
    return value_;
  }
  int peak() {
    MutexLock lock(mu_);
    return peak_;
  }
  // True once the value reached `target`.
  bool waitFor(int target) {
    MutexLock lock(mu_);
    return cv_.wait_for(lock.native(), kHangLimit,
                        [&]() KF_NO_THREAD_SAFETY_ANALYSIS { return value_ >= target; });
  }

 private:
  Mutex mu_;
  std::condition_variable cv_;
  int value_ KF_GUARDED_BY(mu_) = 0;
  int peak_ KF_GUARDED_BY(mu_) = 0;
};

// The threads that ran a test's tasks: whether they were a pool's own, and how many.
class ThreadsSeen {
 public:
  void record() {
    MutexLock lock(mu_);
    threads_.insert(std::this_thread::get_id());
  }
  std::set<std::thread::id> threads() {
    MutexLock lock(mu_);
    return threads_;
  }

 private:
  Mutex mu_;
  std::set<std::thread::id> threads_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::test
