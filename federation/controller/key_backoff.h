#pragma once
// Per-key exponential backoff for keys whose reconcile failed (spec §2.2): the first failure
// waits `initial`, each further one twice as long, never more than `max`. A key that has not
// failed for 2 * max starts again at `initial`, and such stale keys are forgotten about once a
// minute, so keys that stopped failing do not accumulate.

#include <cstddef>
#include <string>
#include <unordered_map>

#include "federation/runtime/backoff.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class KeyBackoff {
 public:
  KeyBackoff(Duration initial, Duration max, Clock& clock);

  // Counts one more failure of `key` and returns how long it should wait.
  Duration next(const std::string& key) KF_EXCLUDES(mu_);
  // Forgets `key`'s failures: its next failure waits `initial` again.
  void reset(const std::string& key) KF_EXCLUDES(mu_);
  // Keys with remembered failures.
  std::size_t trackedKeys() const KF_EXCLUDES(mu_);

 private:
  struct Entry {
    Backoff backoff;
    SteadyTime last_failure;
  };

  bool expired(const Entry& entry, SteadyTime now) const;
  void forgetExpiredLocked(SteadyTime now) KF_REQUIRES(mu_);

  const Duration initial_;
  const Duration max_;
  Clock& clock_;
  mutable Mutex mu_;
  std::unordered_map<std::string, Entry> entries_ KF_GUARDED_BY(mu_);
  SteadyTime last_sweep_ KF_GUARDED_BY(mu_);
};

}  // namespace kf
