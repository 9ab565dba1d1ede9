#pragma once
// The queue controllers use: a DelayingQueue whose retries are paced by a RateLimiter.

#include <memory>
#include <string>

#include "federation/runtime/clock.h"
#include "federation/workqueue/delaying_queue.h"
#include "federation/workqueue/rate_limiter.h"

namespace kf {

class RateLimitingQueue : public DelayingQueue {
 public:
  // Uses defaultControllerRateLimiter(clock).
  explicit RateLimitingQueue(Clock& clock);
  RateLimitingQueue(Clock& clock, std::unique_ptr<RateLimiter> limiter);

  // Adds `key` once the limiter says it may be retried.
  void addRateLimited(const std::string& key);
  // Resets `key`'s backoff; call it when the key was processed successfully.
  void forget(const std::string& key);
  int numRequeues(const std::string& key) const;

 private:
  const std::unique_ptr<RateLimiter> limiter_;
};

}  // namespace kf
