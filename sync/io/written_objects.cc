#include "sync/io/written_objects.h"

#include <utility>

namespace kf::sync {

void WrittenObjects::record(const std::string& key, const std::string& replaced, Json written,
                            bool acted_on) {
  std::string version = objectResourceVersion(written);
  MutexLock lock(mu_);
  Entry& entry = entries_[key];
  entry.replaced.insert(replaced);
  entry.replaced.erase(version);
  if (acted_on && version != replaced) {  // a write that kept its version sends no event
    entry.acted_on.insert(std::move(version));
  }
  entry.object = std::make_shared<const Json>(std::move(written));
}

bool WrittenObjects::isActedOnEcho(const std::string& key, const std::string& resource_version) {
  MutexLock lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.acted_on.erase(resource_version) == 0) {
    return false;
  }
  if (objectResourceVersion(*it->second.object) == resource_version) {
    entries_.erase(it);  // the cache, updated before its handlers run, shows our last write
  }
  return true;
}

ObjectPtr WrittenObjects::newest(const std::string& key, ObjectPtr cached) {
  MutexLock lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return cached;
  if (cached && it->second.replaced.contains(objectResourceVersion(*cached))) {
    return it->second.object;
  }
  entries_.erase(it);
  return cached;
}

void WrittenObjects::forget(const std::string& key) {
  MutexLock lock(mu_);
  entries_.erase(key);
}

std::size_t WrittenObjects::size() const {
  MutexLock lock(mu_);
  return entries_.size();
}

}  // namespace kf::sync
