#include "federation/controller/manager.h"

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <mutex>
#include <utility>

namespace kf {

void waitUntilStopped(const std::stop_token& stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait(lock, stop, [] { return false; });
}

Manager::Manager(std::optional<LeaderElectionConfig> leader_election, Clock& clock)
    : leader_election_(std::move(leader_election)), clock_(clock) {}

void Manager::add(Runnable& runnable, bool needs_leader_election) {
  (needs_leader_election ? leading_ : always_).push_back(&runnable);
}

bool Manager::lead(const std::stop_token& leading, std::optional<ApiError>& failure) {
  if (Status started = startInOrder(leading_); !started) {
    failure = started.error();
    return false;
  }
  waitUntilStopped(leading);
  stopInReverse(leading_);
  return true;
}

Result<ManagerExit> Manager::run(std::stop_token stop) {
  KF_TRYV(startInOrder(always_));
  std::optional<ApiError> failure;
  ManagerExit exit = ManagerExit::kStopped;
  if (!leader_election_) {
    lead(stop, failure);
  } else {
    // A runnable that fails to start while leading ends the election (and releases the lease).
    std::stop_source election_stop;
    std::stop_callback forward(stop, [&election_stop] { election_stop.request_stop(); });
    LeaderElectionConfig config = *leader_election_;
    config.callbacks.on_started_leading = [this, &failure,
                                           &election_stop](std::stop_token leading) {
      if (!lead(leading, failure)) election_stop.request_stop();
    };
    LeaderElector elector(std::move(config), clock_);
    if (elector.run(election_stop.get_token()) == ElectionResult::kLost) {
      exit = ManagerExit::kLeadershipLost;
    }
  }
  stopInReverse(always_);
  if (failure) return *failure;
  return exit;
}

}  // namespace kf
