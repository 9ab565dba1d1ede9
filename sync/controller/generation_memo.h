#pragma once
// Which generation of each federated object a once-per-generation action (a warning event) was
// taken for, so that the reconciles of one generation take it once, however many there are.

#include <cstdint>
#include <map>
#include <string>

#include "federation/runtime/thread_annotations.h"

namespace kf::sync {

class GenerationMemo {
 public:
  // True the first time it is asked for `key` at `generation` (and records it); false after.
  bool firstFor(const std::string& key, std::int64_t generation) KF_EXCLUDES(mu_);
  // The object is gone: its entry goes too.
  void forget(const std::string& key) KF_EXCLUDES(mu_);

 private:
  Mutex mu_;
  std::map<std::string, std::int64_t> generations_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::sync
