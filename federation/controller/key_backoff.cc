#include "federation/controller/key_backoff.h"

#include <algorithm>

namespace kf {
namespace {

constexpr Duration kSweepInterval = std::chrono::minutes(1);

}  // namespace

KeyBackoff::KeyBackoff(Duration initial, Duration max, Clock& clock)
    : initial_(initial), max_(std::max(initial, max)), clock_(clock), last_sweep_(clock.now()) {}

Duration KeyBackoff::next(const std::string& key) {
  const SteadyTime now = clock_.now();
  MutexLock lock(mu_);
  forgetExpiredLocked(now);
  auto [it, inserted] = entries_.try_emplace(key, Entry{Backoff(initial_, max_), now});
  Entry& entry = it->second;
  if (!inserted && expired(entry, now)) entry.backoff.reset();
  entry.last_failure = now;
  return entry.backoff.next();
}

void KeyBackoff::reset(const std::string& key) {
  MutexLock lock(mu_);
  entries_.erase(key);
}

std::size_t KeyBackoff::trackedKeys() const {
  MutexLock lock(mu_);
  return entries_.size();
}

bool KeyBackoff::expired(const Entry& entry, SteadyTime now) const {
  return now - entry.last_failure > 2 * max_;
}

void KeyBackoff::forgetExpiredLocked(SteadyTime now) {
  if (now - last_sweep_ < kSweepInterval) return;
  last_sweep_ = now;
  std::erase_if(entries_, [&](const auto& item) { return expired(item.second, now); });
}

}  // namespace kf
