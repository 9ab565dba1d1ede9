#include "federation/runtime/interruptible_sleep.h"

#include <condition_variable>
#include <memory>

#include "federation/runtime/thread_annotations.h"

namespace kf {
namespace {

// Shared with the timer and the stop callback, either of which may fire after the sleeper left.
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
  auto waker = std::make_shared<Waker>();
  std::stop_callback on_stop(stop, [waker] { waker->wake(); });
  TimerHandlePtr timer = clock.runAfter(delay, [waker] { waker->wake(); });
  MutexLock lock(waker->mu);
  while (!waker->woken) waker->cv.wait(lock.native());
  return !stop.stop_requested();
}

}  // namespace kf
