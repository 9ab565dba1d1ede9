#pragma once
// Something the controller manager starts and stops as a whole: a controller, an informer set, an
// event sender. start() returns once started (the work runs on threads the runnable owns); stop()
// stops it and joins every thread start() started.

#include <functional>
#include <utility>

#include "apis/meta/api_error.h"

namespace kf {

class Runnable {
 public:
  virtual ~Runnable() = default;
  // Starts the work and returns. Called once.
  virtual Status start() = 0;
  // Stops the work and joins its threads. Idempotent; harmless without start().
  virtual void stop() = 0;
};

// A Runnable from two functions; either may be empty.
class RunnableFuncs final : public Runnable {
 public:
  RunnableFuncs(std::function<Status()> start, std::function<void()> stop)
      : start_(std::move(start)), stop_(std::move(stop)) {}
  Status start() override { return start_ ? start_() : Status(boost::outcome_v2::success()); }
  void stop() override {
    if (stop_) std::exchange(stop_, nullptr)();
  }

 private:
  std::function<Status()> start_;
  std::function<void()> stop_;
};

}  // namespace kf
