#pragma once
// Estimated capacities remembered after the pods that revealed them are gone.
//
// Why: KubeFed estimates a cluster's capacity only from pods that are unschedulable right now
// (spec §2.7 step 4). Once the RSP has moved those replicas away, the cluster has no pods left to
// show its limit, and the very next pass (set off by the RSP's own write, while the moved
// replicas are still starting in the other clusters, so they do not count as running) plans them
// back: on a real node the replicas swing away and back every unschedulable window. Holding the
// estimate for kCapacityHold keeps them moved until they run where they went (without rebalance,
// running replicas then stay); with rebalance the cluster is tried again once the hold lapses.
//
// A remembered capacity is dropped when it lapses, or as soon as the cluster runs more ready
// replicas than it (the limit no longer holds). Not thread-safe: its owner serialises access.

#include <chrono>
#include <map>
#include <string>

#include "federation/scheduling/replica_state.h"

namespace kf::scheduling {

inline constexpr std::chrono::minutes kCapacityHold{5};

class CapacityMemory {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  // `state` of the RSP `key` observed at `now`, completed from memory: a cluster without an
  // estimate of its own this time gets the one remembered for it while that holds. Estimates in
  // `state` are remembered until now + kCapacityHold. While any capacity is remembered for `key`,
  // the result asks for a recheck, so that its lapse is acted on without waiting for an event.
  ReplicaState recall(const std::string& key, ReplicaState state, TimePoint now);

  // The RSP `key` is gone.
  void forget(const std::string& key) { held_.erase(key); }

 private:
  struct Held {
    std::int64_t capacity = 0;
    TimePoint until;
  };
  // Remembered capacities by RSP key, then cluster name.
  std::map<std::string, std::map<std::string, Held>> held_;
};

}  // namespace kf::scheduling
