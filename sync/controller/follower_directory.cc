#include "sync/controller/follower_directory.h"

#include <utility>

namespace kf::sync {

FollowerDirectory::Registration FollowerDirectory::add(const std::string& target_kind,
                                                       Lookup lookup) {
  MutexLock lock(mu_);
  const Registration registration = ++next_;
  entries_[registration] = Entry{target_kind, std::move(lookup)};
  return registration;
}

void FollowerDirectory::remove(Registration registration) {
  MutexLock lock(mu_);
  entries_.erase(registration);
}

ObjectPtr FollowerDirectory::find(const std::string& target_kind, const std::string& key) const {
  MutexLock lock(mu_);
  for (const auto& [registration, entry] : entries_) {
    if (entry.target_kind != target_kind) continue;
    if (ObjectPtr object = entry.lookup(key)) return object;
  }
  return nullptr;
}

FollowerDirectory& followerDirectory() {
  static FollowerDirectory directory;
  return directory;
}

}  // namespace kf::sync
