#include <condition_variable>
#include <map>
#include <memory>
#include <thread>

#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {
namespace {

// One timer thread serving every runAfter() of the process, ordered by deadline.
class RealClock final : public Clock {
 public:
  RealClock() : thread_([this](std::stop_token stop) { run(stop); }) {}
  ~RealClock() override {
    {
      // Under the lock, so the timer thread cannot miss the wake-up between its check and wait.
      MutexLock lock(mu_);
      thread_.request_stop();
    }
    cv_.notify_all();
  }

  SteadyTime now() const override { return std::chrono::steady_clock::now(); }
  std::chrono::system_clock::time_point wallNow() const override {
    return std::chrono::system_clock::now();
  }

  TimerHandlePtr runAfter(Duration delay, std::function<void()> fn) override {
    std::uint64_t id = 0;
    {
      MutexLock lock(mu_);
      id = ++next_id_;
      const Key key{now() + delay, id};
      timers_.emplace(key, std::move(fn));
      deadline_of_.emplace(id, key.deadline);
    }
    cv_.notify_all();
    return std::make_unique<Handle>(*this, id);
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
    Handle(RealClock& clock, std::uint64_t id) : clock_(clock), id_(id) {}
    ~Handle() override { cancel(); }
    void cancel() override { clock_.cancel(id_); }

   private:
    RealClock& clock_;
    std::uint64_t id_;
  };

  void cancel(std::uint64_t id) {
    MutexLock lock(mu_);
    if (auto it = deadline_of_.find(id); it != deadline_of_.end()) {
      timers_.erase(Key{it->second, id});
      deadline_of_.erase(it);
    }
    // A callback of this timer in progress finishes first, so its owner may go away after
    // cancel() -- unless the callback is cancelling itself, which must not wait for itself.
    while (running_ == id && std::this_thread::get_id() != thread_.get_id()) {
      finished_cv_.wait(lock.native());
    }
  }

  void run(const std::stop_token& stop) {
    MutexLock lock(mu_);
    while (!stop.stop_requested()) {
      if (timers_.empty()) {
        cv_.wait(lock.native());
        continue;
      }
      auto first = timers_.begin();
      if (const SteadyTime deadline = first->first.deadline; deadline > now()) {
        // A copy: wait_until re-reads its deadline after waking, and cancel() may have erased
        // the timer that held it.
        cv_.wait_until(lock.native(), deadline);
        continue;
      }
      running_ = first->first.id;
      auto fn = std::move(first->second);
      deadline_of_.erase(first->first.id);
      timers_.erase(first);
      lock.native().unlock();
      fn();
      fn = nullptr;  // what the callback captured goes before cancel() returns
      lock.native().lock();
      running_ = 0;
      finished_cv_.notify_all();
    }
  }

  Mutex mu_;
  std::condition_variable cv_;
  std::condition_variable finished_cv_;  // a callback returned
  std::map<Key, std::function<void()>> timers_ KF_GUARDED_BY(mu_);
  std::map<std::uint64_t, SteadyTime> deadline_of_ KF_GUARDED_BY(mu_);
  std::uint64_t next_id_ KF_GUARDED_BY(mu_) = 0;
  std::uint64_t running_ KF_GUARDED_BY(mu_) = 0;  // id of the callback being run, 0: none
  std::jthread thread_;  // last member: starts after, and is joined before, the state above
};

}  // namespace

Clock& realClock() {
  static RealClock clock;
  return clock;
}

}  // namespace kf
