#include "sync/controller/generation_memo.h"

namespace kf::sync {

bool GenerationMemo::firstFor(const std::string& key, std::int64_t generation) {
  MutexLock lock(mu_);
  auto [entry, inserted] = generations_.try_emplace(key, generation);
  if (inserted) return true;
  if (entry->second == generation) return false;
  entry->second = generation;
  return true;
}

void GenerationMemo::forget(const std::string& key) {
  MutexLock lock(mu_);
  generations_.erase(key);
}

}  // namespace kf::sync
