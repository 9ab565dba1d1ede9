#pragma once
// Something the controller manager starts and stops as a whole: a controller, an informer set, an
// event sender. start() returns once started (the work runs on threads the runnable owns); stop()
// stops it and joins every thread start() started.

#include <functional>
#include <memory>
#include <utility>
#include <vector>

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
using RunnablePtr = std::unique_ptr<Runnable>;

// Starts `group` in order; when one fails to start, stops the ones started, in reverse, and
// returns its error.
Status startInOrder(const std::vector<Runnable*>& group);
// Stops `group` in reverse order: whatever a runnable uses was started before it.
void stopInReverse(const std::vector<Runnable*>& group);

// Runnables that start and stop together, as one: in the order given, and in reverse.
class RunnableGroup final : public Runnable {
 public:
  explicit RunnableGroup(std::vector<RunnablePtr> members);
  // stop().
  ~RunnableGroup() override;

  Status start() override;
  void stop() override;

 private:
  std::vector<RunnablePtr> members_;
  bool stopped_ = false;
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
