#include "federation/workqueue/rate_limiting_queue.h"

#include <utility>

namespace kf {

RateLimitingQueue::RateLimitingQueue(Clock& clock)
    : RateLimitingQueue(clock, defaultControllerRateLimiter(clock)) {}

RateLimitingQueue::RateLimitingQueue(Clock& clock, std::unique_ptr<RateLimiter> limiter)
    : DelayingQueue(clock), limiter_(std::move(limiter)) {}

void RateLimitingQueue::addRateLimited(const std::string& key) {
  addAfter(key, limiter_->when(key));
}

void RateLimitingQueue::forget(const std::string& key) { limiter_->forget(key); }

int RateLimitingQueue::numRequeues(const std::string& key) const {
  return limiter_->numRequeues(key);
}

}  // namespace kf
