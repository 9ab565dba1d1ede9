#pragma once
// A Clock for unit tests: time moves only when the test calls advance(), which runs every timer
// that became due, in deadline order, on the calling thread, before it returns. No test needs to
// sleep. Cancelling waits for a callback running on another thread, as the real clock does.

#include <condition_variable>
#include <map>
#include <memory>
#include <thread>
#include <utility>

#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

class FakeClock final : public Clock {
 public:
  SteadyTime now() const override {
    MutexLock lock(mu_);
    return now_;
  }
  std::chrono::system_clock::time_point wallNow() const override {
    MutexLock lock(mu_);
    return wall_origin_ + (now_ - SteadyTime{});
  }

  TimerHandlePtr runAfter(Duration delay, std::function<void()> fn) override {
    MutexLock lock(mu_);
    const std::uint64_t id = ++next_id_;
    timers_.emplace(Key{now_ + delay, id}, std::move(fn));
    scheduled_.notify_all();
    return std::make_unique<Handle>(*this, id);
  }

  // For code under test that waits on this clock on a thread of its own (a poll, a sleep): waits
  // in real time, at most 10 s, until a timer is pending. False when none came, so that a test
  // fails instead of hanging.
  bool waitUntilPending() {
    MutexLock lock(mu_);
    return scheduled_.wait_for(lock.native(), std::chrono::seconds(10),
                               [this]() KF_NO_THREAD_SAFETY_ANALYSIS { return !timers_.empty(); });
  }
  // waitUntilPending(), then advance(step).
  bool advanceWhenPending(Duration step) {
    if (!waitUntilPending()) return false;
    advance(step);
    return true;
  }

  // Moves time forward by `step`, firing due timers (including ones they schedule) on the way.
  void advance(Duration step) {
    SteadyTime target;
    {
      MutexLock lock(mu_);
      target = now_ + step;
    }
    while (true) {
      std::function<void()> fn;
      {
        MutexLock lock(mu_);
        auto first = timers_.begin();
        if (first == timers_.end() || first->first.deadline > target) {
          now_ = target;
          return;
        }
        now_ = std::max(now_, first->first.deadline);
        fn = std::move(first->second);
        running_ = Running{first->first.id, std::this_thread::get_id()};
        timers_.erase(first);
      }
      fn();
      fn = nullptr;
      {
        MutexLock lock(mu_);
        running_ = Running{};
      }
      finished_.notify_all();
    }
  }

  std::size_t pendingTimers() const {
    MutexLock lock(mu_);
    return timers_.size();
  }

 private:
  struct Key {
    SteadyTime deadline;
    std::uint64_t id;
    bool operator<(const Key& other) const {
      return deadline != other.deadline ? deadline < other.deadline : id < other.id;
    }
  };

  class Handle final : public TimerHandle {
   public:
    Handle(FakeClock& clock, std::uint64_t id) : clock_(clock), id_(id) {}
    ~Handle() override { cancel(); }
    void cancel() override { clock_.cancel(id_); }

   private:
    FakeClock& clock_;
    std::uint64_t id_;
  };

  void cancel(std::uint64_t id) {
    MutexLock lock(mu_);
    std::erase_if(timers_, [id](const auto& entry) { return entry.first.id == id; });
    while (running_.id == id && running_.thread != std::this_thread::get_id()) {
      finished_.wait(lock.native());
    }
  }

  struct Running {
    std::uint64_t id = 0;  // 0: no callback running
    std::thread::id thread;
  };

  mutable Mutex mu_;
  SteadyTime now_ KF_GUARDED_BY(mu_){std::chrono::hours(1)};
  std::chrono::system_clock::time_point wall_origin_{std::chrono::seconds(1'700'000'000)};
  std::map<Key, std::function<void()>> timers_ KF_GUARDED_BY(mu_);
  std::uint64_t next_id_ KF_GUARDED_BY(mu_) = 0;
  Running running_ KF_GUARDED_BY(mu_);
  std::condition_variable finished_;
  std::condition_variable scheduled_;
};

}  // namespace kf::test
