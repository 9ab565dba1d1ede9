#include "federation/scheduling/capacity_memory.h"

namespace kf::scheduling {

namespace {

// The remembered limit no longer holds: the cluster runs more than it.
bool disproved(const ReplicaState& state, const std::string& cluster, std::int64_t capacity) {
  auto running = state.current.find(cluster);
  return running != state.current.end() && running->second > capacity;
}

}  // namespace

ReplicaState CapacityMemory::recall(const std::string& key, ReplicaState state, TimePoint now) {
  // Most RSPs never see an unschedulable pod: they cost no entry.
  if (state.capacity.empty() && !held_.contains(key)) return state;
  auto& held = held_[key];
  for (const auto& [cluster, capacity] : state.capacity) {
    held[cluster] = Held{capacity, now + kCapacityHold};
  }
  for (auto it = held.begin(); it != held.end();) {
    const auto& [cluster, remembered] = *it;
    if (remembered.until <= now || disproved(state, cluster, remembered.capacity)) {
      it = held.erase(it);
      continue;
    }
    state.capacity.emplace(cluster, remembered.capacity);  // an estimate of this pass wins
    ++it;
  }
  if (held.empty()) {
    held_.erase(key);
  } else {
    state.needs_recheck = true;
  }
  return state;
}

}  // namespace kf::scheduling
