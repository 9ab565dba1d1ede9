#include "federation/runtime/interruptible_sleep.h"

#include <condition_variable>

#include "federation/runtime/thread_annotations.h"

namespace kf {
namespace {

struct Waker {
  void wake() {
    MutexLock lock(mu);
    woken = true;
    cv.notify_all();
  }
  Mutex mu;
  std::condition_variable cv;
  bool woken KF_GUARDED_BY(mu) = false;
};

}  // namespace

bool sleepUnlessStopped(Clock& clock, const std::stop_token& stop, Duration delay) {
  if (delay <= Duration::zero()) return !stop.stop_requested();
  // On the stack: destroying the stop callback and the timer handle waits for a wake() in
  // progress on another thread.
  Waker waker;
  TimerHandlePtr timer = clock.runAfter(delay, [&waker] { waker.wake(); });
  std::stop_callback on_stop(stop, [&waker] { waker.wake(); });
  MutexLock lock(waker.mu);
  while (!waker.woken) waker.cv.wait(lock.native());
  return !stop.stop_requested();
}

bool pollImmediate(Clock& clock, Duration interval, Duration timeout,
                   const std::function<bool()>& done) {
  const SteadyTime deadline = clock.now() + timeout;
  while (!done()) {
    if (clock.now() >= deadline) return false;
    sleepUnlessStopped(clock, std::stop_token{}, interval);
  }
  return true;
}

}  // namespace kf
