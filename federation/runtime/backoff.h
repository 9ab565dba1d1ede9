#pragma once
// The one exponential backoff of the project: the reflector between failed lists and watches, the
// REST client between retries, and the controllers per failing key all wait `initial`, then twice
// as long each time, never more than `max`. No jitter, so tests can predict every wait.

#include "federation/runtime/clock.h"

namespace kf {

class Backoff {
 public:
  Backoff(Duration initial, Duration max);

  // The wait for this failure; the next one waits twice as long (at most max).
  Duration next();
  // Starts over: the next wait is `initial` again.
  void reset() { current_ = initial_; }

 private:
  Duration initial_;
  Duration max_;
  Duration current_;
};

}  // namespace kf
