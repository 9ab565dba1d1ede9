#pragma once
// Rate limiters decide how long a key must wait before it is retried. The controller default
// combines a per-key exponential backoff (a key that keeps failing is retried less often) with
// an overall token bucket (a burst of failures across many keys cannot flood the API servers).

#include <climits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"
#include "federation/runtime/token_bucket.h"

namespace kf {

class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // How long `key` should wait before it is retried; counts as one more retry of it.
  virtual Duration when(const std::string& key) = 0;
  // Stops tracking `key`: its next failure is treated as its first.
  virtual void forget(const std::string& key) = 0;
  // How many times when() was called for `key` since it was last forgotten.
  virtual int numRequeues(const std::string& key) const = 0;
};

// Waits base * 2^(failures so far), capped at `max_delay`.
class ItemExponentialFailureRateLimiter final : public RateLimiter {
 public:
  ItemExponentialFailureRateLimiter(Duration base, Duration max_delay);

  Duration when(const std::string& key) override KF_EXCLUDES(mu_);
  void forget(const std::string& key) override KF_EXCLUDES(mu_);
  int numRequeues(const std::string& key) const override KF_EXCLUDES(mu_);

 private:
  Duration backoff(int failures) const;

  const Duration base_;
  const Duration max_delay_;
  mutable Mutex mu_;
  std::unordered_map<std::string, int> failures_ KF_GUARDED_BY(mu_);
};

// Spaces retries of all keys together at `qps`, after an initial `burst`; keys are not tracked.
class BucketRateLimiter final : public RateLimiter {
 public:
  static constexpr double kDefaultQps = 10;
  static constexpr int kDefaultBurst = 100;

  explicit BucketRateLimiter(Clock& clock, double qps = kDefaultQps, int burst = kDefaultBurst);

  Duration when(const std::string& key) override;
  void forget(const std::string& key) override;
  int numRequeues(const std::string& key) const override;

 private:
  TokenBucket bucket_;
};

// Asks every limiter and waits for the longest answer.
class MaxOfRateLimiter final : public RateLimiter {
 public:
  explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters);

  Duration when(const std::string& key) override;
  void forget(const std::string& key) override;
  int numRequeues(const std::string& key) const override;

 private:
  const std::vector<std::unique_ptr<RateLimiter>> limiters_;
};

// max(exponential 5ms..1000s per key, bucket of 10 qps with a burst of 100 overall).
std::unique_ptr<RateLimiter> defaultControllerRateLimiter(Clock& clock);

}  // namespace kf
