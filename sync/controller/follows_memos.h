#pragma once
// What the passes of one sync controller remember between them about dependencies that follow
// their workloads (followed_placement.h, dependency_gate.h): in memory, per federated object.

#include <map>
#include <optional>
#include <set>
#include <string>

#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::sync {

// The last union each follower was propagated with in this process.
class FollowedPlacementMemo {
 public:
  // The union recorded for `key` before this one (nullopt: none yet), and records `placement`.
  std::optional<std::set<std::string>> exchange(const std::string& key,
                                                std::set<std::string> placement) KF_EXCLUDES(mu_);
  // The object is being deleted: its entry goes.
  void forget(const std::string& key) KF_EXCLUDES(mu_);

 private:
  Mutex mu_;
  std::map<std::string, std::set<std::string>> placements_ KF_GUARDED_BY(mu_);
};

// Since when each (workload, cluster) creation has been waiting.
class DependencyWaits {
 public:
  std::map<std::string, SteadyTime> of(const std::string& key) const KF_EXCLUDES(mu_);
  // The clusters of `key` that wait now, replacing those recorded.
  void set(const std::string& key, std::map<std::string, SteadyTime> waiting) KF_EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  std::map<std::string, std::map<std::string, SteadyTime>> waits_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::sync
