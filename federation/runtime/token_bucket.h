#pragma once
// A token bucket shared by the work queue's overall rate limiter and the REST client's
// per-cluster QPS/burst limiter. Time comes from the injected Clock, so tests drive refills with
// a FakeClock instead of sleeping.

#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class TokenBucket {
 public:
  // `qps` tokens are added per second up to `burst` (at least 1); the bucket starts full.
  // qps <= 0 means unlimited: every call succeeds immediately.
  TokenBucket(double qps, int burst, Clock& clock);
  TokenBucket(const TokenBucket&) = delete;
  TokenBucket& operator=(const TokenBucket&) = delete;

  // Takes a token if one is available now; never waits.
  bool tryAccept() KF_EXCLUDES(mu_);
  // Takes a token unconditionally and returns how long the caller must wait before using it
  // (zero if it was available now). The bucket goes into debt, so concurrent callers are handed
  // successive slots instead of all waking at the same instant.
  Duration reserve() KF_EXCLUDES(mu_);
  // reserve(), then blocks until the reserved slot arrives on the clock (fake clocks included).
  void accept() KF_EXCLUDES(mu_);

  double qps() const { return qps_; }
  int burst() const { return burst_; }

 private:
  bool unlimited() const { return qps_ <= 0; }
  // When the token taken now would become usable, given the current debt.
  SteadyTime nextFullAtLocked(SteadyTime now) const KF_REQUIRES(mu_);

  const double qps_;
  const int burst_;
  // Time for one token to refill, and for an empty bucket to refill completely.
  const Duration interval_;
  const Duration capacity_;
  Clock& clock_;

  Mutex mu_;
  // The instant at which the bucket would be full again if nobody took more tokens. Tracking one
  // time point in integer nanoseconds (rather than a fractional token count) keeps refills exact.
  SteadyTime full_at_ KF_GUARDED_BY(mu_);
};

}  // namespace kf
