#pragma once
// Time, injected everywhere: production code takes a Clock&, unit tests pass a FakeClock
// (tests/support/fake_clock.h) whose advance() fires due timers before it returns, so no test
// sleeps to synchronise.

#include <chrono>
#include <functional>
#include <memory>

namespace kf {

using SteadyTime = std::chrono::steady_clock::time_point;
using Duration = std::chrono::nanoseconds;

// Cancels its timer when destroyed or when cancel() is called; cancelling a timer that already
// fired is a no-op. When cancel() returns, the callback is not running and never will: one in
// progress on another thread is waited for (a callback cancelling its own timer returns at once).
// So a callback may use its owner freely, provided the owner cancels (or destroys) the handle
// before it goes away -- and does not hold a lock the callback takes while doing so.
class TimerHandle {
 public:
  virtual ~TimerHandle() = default;
  virtual void cancel() = 0;
};
using TimerHandlePtr = std::unique_ptr<TimerHandle>;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual SteadyTime now() const = 0;
  // Wall-clock time, for timestamps written to the API (lastProbeTime, lease renewTime).
  virtual std::chrono::system_clock::time_point wallNow() const = 0;
  // Runs `fn` once `delay` has elapsed, on the clock's timer thread (RealClock) or inside
  // advance() (FakeClock). Callbacks must be short: they share one thread.
  virtual TimerHandlePtr runAfter(Duration delay, std::function<void()> fn) = 0;
};

// The process-wide real clock; its timer thread starts on first use and is joined at exit.
Clock& realClock();

}  // namespace kf
