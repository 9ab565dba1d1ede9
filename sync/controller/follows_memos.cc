#include "sync/controller/follows_memos.h"

#include <utility>

namespace kf::sync {

std::optional<std::set<std::string>> FollowedPlacementMemo::exchange(
    const std::string& key, std::set<std::string> placement) {
  MutexLock lock(mu_);
  auto found = placements_.find(key);
  if (found == placements_.end()) {
    placements_.emplace(key, std::move(placement));
    return std::nullopt;
  }
  return std::exchange(found->second, std::move(placement));
}

void FollowedPlacementMemo::forget(const std::string& key) {
  MutexLock lock(mu_);
  placements_.erase(key);
}

std::map<std::string, SteadyTime> DependencyWaits::of(const std::string& key) const {
  MutexLock lock(mu_);
  const auto found = waits_.find(key);
  return found != waits_.end() ? found->second : std::map<std::string, SteadyTime>{};
}

void DependencyWaits::set(const std::string& key, std::map<std::string, SteadyTime> waiting) {
  MutexLock lock(mu_);
  if (waiting.empty()) {
    waits_.erase(key);
  } else {
    waits_[key] = std::move(waiting);
  }
}

}  // namespace kf::sync
