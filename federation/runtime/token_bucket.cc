#include "federation/runtime/token_bucket.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "federation/runtime/interruptible_sleep.h"

namespace kf {
namespace {

// Slower rates than one token per ~11 days are clamped to it, so that interval * burst and the
// debt accumulated by reserve() stay far from overflowing a nanosecond count.
constexpr double kMaxIntervalNanos = 1e15;

Duration refillInterval(double qps) {
  if (qps <= 0) return Duration::zero();
  const double nanos = std::clamp(1e9 / qps, 1.0, kMaxIntervalNanos);
  return Duration(std::llround(nanos));
}

Duration saturatingTimes(Duration interval, int count) {
  if (interval <= Duration::zero()) return Duration::zero();
  if (count > Duration::max().count() / 2 / interval.count()) return Duration::max() / 2;
  return interval * count;
}

}  // namespace

TokenBucket::TokenBucket(double qps, int burst, Clock& clock)
    : qps_(qps),
      burst_(std::max(burst, 1)),
      interval_(refillInterval(qps)),
      capacity_(saturatingTimes(interval_, burst_)),
      clock_(clock),
      full_at_(clock.now()) {}

SteadyTime TokenBucket::nextFullAtLocked(SteadyTime now) const {
  return std::max(full_at_, now) + interval_;
}

bool TokenBucket::tryAccept() {
  if (unlimited()) return true;
  const SteadyTime now = clock_.now();
  MutexLock lock(mu_);
  const SteadyTime next = nextFullAtLocked(now);
  if (next - now > capacity_) return false;
  full_at_ = next;
  return true;
}

Duration TokenBucket::reserve() {
  if (unlimited()) return Duration::zero();
  const SteadyTime now = clock_.now();
  MutexLock lock(mu_);
  full_at_ = nextFullAtLocked(now);
  // The token is usable once the debt beyond a full bucket's worth has been paid back.
  return std::max(Duration::zero(), full_at_ - now - capacity_);
}

void TokenBucket::accept() {
  // On the clock, so a FakeClock's advance() releases the caller; nothing stops this wait.
  sleepUnlessStopped(clock_, std::stop_token{}, reserve());
}

}  // namespace kf
