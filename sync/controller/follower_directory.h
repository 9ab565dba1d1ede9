#pragma once
// Where a workload's sync controller finds the objects that follow it (beyond KubeFed,
// kubefed-cpp.io/placement-follows), to create it in a cluster only after them
// (dependency_gate.h): the sync controllers of the kinds a pod template references register a
// look-up into their cache of federated objects. In memory, one per process; a kind whose sync
// controller is not running (or whose cache is not listed yet) finds nothing, and then nothing
// is waited for.

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "apis/meta/object.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::sync {

class FollowerDirectory {
 public:
  // The cached federated object of a key ("namespace/name"); null when absent.
  using Lookup = std::function<ObjectPtr(const std::string& key)>;
  using Registration = std::uint64_t;

  // `lookup` must stay callable until remove().
  Registration add(const std::string& target_kind, Lookup lookup) KF_EXCLUDES(mu_);
  void remove(Registration registration) KF_EXCLUDES(mu_);
  // The federated object of target kind `target_kind` (e.g. ConfigMap) and key `key`.
  ObjectPtr find(const std::string& target_kind, const std::string& key) const KF_EXCLUDES(mu_);

 private:
  struct Entry {
    std::string target_kind;
    Lookup lookup;
  };
  mutable Mutex mu_;
  Registration next_ KF_GUARDED_BY(mu_) = 0;
  std::map<Registration, Entry> entries_ KF_GUARDED_BY(mu_);
};

// The process's directory.
FollowerDirectory& followerDirectory();

}  // namespace kf::sync
