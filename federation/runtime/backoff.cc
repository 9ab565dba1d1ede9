#include "federation/runtime/backoff.h"

#include <algorithm>

namespace kf {

Backoff::Backoff(Duration initial, Duration max)
    : initial_(initial), max_(std::max(initial, max)), current_(initial) {}

Duration Backoff::next() {
  const Duration delay = current_;
  // Doubling stops at max, so the duration never overflows however often it is called.
  current_ = current_ >= max_ / 2 ? max_ : current_ * 2;
  return delay;
}

}  // namespace kf
