#pragma once
// Runs a process's runnables (controller-runtime's Manager): they start in the order they were
// added and stop in the reverse order, so whatever a runnable uses was started before it and is
// stopped after it. Runnables that need leadership start only once this process leads (Lease
// leader election), and losing the lease stops them and ends run().

#include <optional>
#include <stop_token>
#include <vector>

#include "federation/controller/runnable.h"
#include "federation/election/leader_elector.h"
#include "federation/runtime/clock.h"

namespace kf {

enum class ManagerExit {
  kStopped,         // the caller's token was stopped
  kLeadershipLost,  // the lease was lost: KubeFed exits non-zero
};

class Manager {
 public:
  // Without `leader_election` the runnables that need it start at once. Its callbacks are the
  // manager's; the lock must outlive the manager.
  Manager(std::optional<LeaderElectionConfig> leader_election, Clock& clock);

  // `runnable` must outlive run().
  void add(Runnable& runnable, bool needs_leader_election = true);

  // Starts the runnables, blocks until `stop` is requested or leadership is lost, then stops
  // every runnable it started, in reverse order. Fails (with everything stopped again) when a
  // runnable fails to start. Once only.
  Result<ManagerExit> run(std::stop_token stop);

 private:
  // Leads until `leading` is stopped; false (with `failure` set) when a runnable did not start.
  bool lead(const std::stop_token& leading, std::optional<ApiError>& failure);

  std::optional<LeaderElectionConfig> leader_election_;
  Clock& clock_;
  std::vector<Runnable*> always_;
  std::vector<Runnable*> leading_;
};

// Blocks until `stop` is requested.
void waitUntilStopped(const std::stop_token& stop);

}  // namespace kf
