#pragma once
// Helpers for controller tests: a clock that reports when a timer is armed, and a log of
// reconciles the test can wait on. Waits end on the event they wait for; the deadline only
// turns a hang into a failure.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "federation/controller/reconciler.h"
#include "federation/runtime/thread_annotations.h"
#include "tests/support/fake_clock.h"

namespace kf::test {

inline constexpr std::chrono::seconds kWaitLimit{10};

// Each of KubeFed's four results.
inline const ReconcileResult kOk{ReconcileStatus::kOk};
inline const ReconcileResult kNeedsRecheck{ReconcileStatus::kNeedsRecheck};
inline const ReconcileResult kNotSynced{ReconcileStatus::kNotSynced};
inline const ReconcileResult kError{makeError(Reason::kInternalError, "scripted failure")};

// A FakeClock that counts runAfter() calls, so a test can wait until a worker has armed the
// timer of a delayed key before it advances time.
class TimerWatchingClock final : public Clock {
 public:
  SteadyTime now() const override { return clock_.now(); }
  std::chrono::system_clock::time_point wallNow() const override { return clock_.wallNow(); }
  TimerHandlePtr runAfter(Duration delay, std::function<void()> fn) override {
    TimerHandlePtr handle = clock_.runAfter(delay, std::move(fn));
    {
      MutexLock lock(mu_);
      ++armed_;
    }
    cv_.notify_all();
    return handle;
  }

  void advance(Duration step) { clock_.advance(step); }
  std::size_t pendingTimers() const { return clock_.pendingTimers(); }
  std::size_t armedTimers() const {
    MutexLock lock(mu_);
    return armed_;
  }
  // True once at least `count` timers were armed since the clock was made.
  bool waitForArmedTimers(std::size_t count) {
    MutexLock lock(mu_);
    return cv_.wait_for(lock.native(), kWaitLimit,
                        [&]() KF_NO_THREAD_SAFETY_ANALYSIS { return armed_ >= count; });
  }

 private:
  FakeClock clock_;
  mutable Mutex mu_;
  std::condition_variable cv_;
  std::size_t armed_ KF_GUARDED_BY(mu_) = 0;
};

// Records each reconcile (key and clock time) and answers it from a per-key script of results;
// a key without a script (or past its end) gets `fallback`.
class ReconcileLog {
 public:
  ReconcileLog(Clock& clock, ReconcileResult fallback) : clock_(clock), fallback_(fallback) {}

  void script(const std::string& key, std::vector<ReconcileResult> results) {
    MutexLock lock(mu_);
    scripts_[key] = std::move(results);
  }
  std::function<ReconcileResult(const std::string&)> func() {
    return [this](const std::string& key) { return record(key); };
  }

  std::size_t count(const std::string& key) const {
    MutexLock lock(mu_);
    return timesLocked(key).size();
  }
  std::vector<SteadyTime> times(const std::string& key) const {
    MutexLock lock(mu_);
    return timesLocked(key);
  }
  std::vector<std::string> order() const {
    MutexLock lock(mu_);
    return order_;
  }
  // True once `key` has been reconciled at least `n` times.
  bool waitForCount(const std::string& key, std::size_t n) const {
    MutexLock lock(mu_);
    return cv_.wait_for(lock.native(), kWaitLimit, [&]() KF_NO_THREAD_SAFETY_ANALYSIS {
      return timesLocked(key).size() >= n;
    });
  }

 private:
  ReconcileResult record(const std::string& key) {
    ReconcileResult result = fallback_;
    {
      MutexLock lock(mu_);
      std::vector<ReconcileResult>& script = scripts_[key];
      const std::size_t index = times_[key].size();
      if (index < script.size()) result = script[index];
      times_[key].push_back(clock_.now());
      order_.push_back(key);
    }
    cv_.notify_all();
    return result;
  }
  std::vector<SteadyTime> timesLocked(const std::string& key) const KF_REQUIRES(mu_) {
    auto it = times_.find(key);
    return it == times_.end() ? std::vector<SteadyTime>{} : it->second;
  }

  Clock& clock_;
  const ReconcileResult fallback_;
  mutable Mutex mu_;
  mutable std::condition_variable cv_;
  std::map<std::string, std::vector<ReconcileResult>> scripts_ KF_GUARDED_BY(mu_);
  std::map<std::string, std::vector<SteadyTime>> times_ KF_GUARDED_BY(mu_);
  std::vector<std::string> order_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::test
