#include "federation/workqueue/rate_limiter.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace kf {

ItemExponentialFailureRateLimiter::ItemExponentialFailureRateLimiter(Duration base,
                                                                     Duration max_delay)
    : base_(base), max_delay_(max_delay) {}

Duration ItemExponentialFailureRateLimiter::when(const std::string& key) {
  int failures = 0;
  {
    MutexLock lock(mu_);
    int& count = failures_[key];
    failures = count;
    if (count < INT_MAX) ++count;
  }
  return backoff(failures);
}

void ItemExponentialFailureRateLimiter::forget(const std::string& key) {
  MutexLock lock(mu_);
  failures_.erase(key);
}

int ItemExponentialFailureRateLimiter::numRequeues(const std::string& key) const {
  MutexLock lock(mu_);
  auto it = failures_.find(key);
  return it == failures_.end() ? 0 : it->second;
}

Duration ItemExponentialFailureRateLimiter::backoff(int failures) const {
  if (base_ <= Duration::zero()) return Duration::zero();
  // Shifting by the bit width or more is undefined, and any such product exceeds the cap.
  constexpr int kRepBits = sizeof(Duration::rep) * CHAR_BIT - 1;
  if (failures >= kRepBits) return max_delay_;
  // base * 2^failures > max exactly when base > max / 2^failures (rounded down); checking it this
  // way round means the multiplication below cannot overflow.
  if (base_.count() > (max_delay_.count() >> failures)) return max_delay_;
  return Duration(base_.count() << failures);
}

BucketRateLimiter::BucketRateLimiter(Clock& clock, double qps, int burst)
    : bucket_(qps, burst, clock) {}

Duration BucketRateLimiter::when(const std::string& /*key*/) { return bucket_.reserve(); }

void BucketRateLimiter::forget(const std::string& /*key*/) {}

int BucketRateLimiter::numRequeues(const std::string& /*key*/) const { return 0; }

MaxOfRateLimiter::MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters)
    : limiters_(std::move(limiters)) {}

Duration MaxOfRateLimiter::when(const std::string& key) {
  // Every limiter is asked, not just until one answers long: each records the retry.
  Duration longest = Duration::zero();
  for (const auto& limiter : limiters_) longest = std::max(longest, limiter->when(key));
  return longest;
}

void MaxOfRateLimiter::forget(const std::string& key) {
  for (const auto& limiter : limiters_) limiter->forget(key);
}

int MaxOfRateLimiter::numRequeues(const std::string& key) const {
  int most = 0;
  for (const auto& limiter : limiters_) most = std::max(most, limiter->numRequeues(key));
  return most;
}

std::unique_ptr<RateLimiter> defaultControllerRateLimiter(Clock& clock) {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  std::vector<std::unique_ptr<RateLimiter>> limiters;
  limiters.push_back(
      std::make_unique<ItemExponentialFailureRateLimiter>(milliseconds(5), seconds(1000)));
  limiters.push_back(std::make_unique<BucketRateLimiter>(clock));
  return std::make_unique<MaxOfRateLimiter>(std::move(limiters));
}

}  // namespace kf
