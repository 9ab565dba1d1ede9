#include "sync/io/written_objects.h"

#include <utility>

namespace kf::sync {

WrittenObjects::PendingWrite::PendingWrite(WrittenObjects& objects, std::string key)
    : objects_(objects), key_(std::move(key)) {
  MutexLock lock(objects_.mu_);
  ++objects_.entries_[key_].writes_in_flight;
}

WrittenObjects::PendingWrite::~PendingWrite() {
  if (ended_) return;
  MutexLock lock(objects_.mu_);
  objects_.endWrite(key_, nullptr);
}

void WrittenObjects::PendingWrite::record(const std::string& replaced, Json written,
                                          bool acted_on) {
  if (ended_) return;
  ended_ = true;
  const std::string version = objectResourceVersion(written);
  MutexLock lock(objects_.mu_);
  WrittenObjects::Entry& entry = objects_.entries_[key_];
  // The echo came before the answer: it was held back, and is not waited for any more.
  const bool echo_arrived = entry.held.erase(version) > 0;
  objects_.recordLocked(key_, replaced, std::move(written), acted_on && !echo_arrived);
  // A write that did not act on everything it wrote onto (after a Conflict) needs the
  // reconcile its echo would have queued.
  if (echo_arrived && !acted_on) objects_.requeue_.insert(key_);
  objects_.endWrite(key_, &version);
}

void WrittenObjects::record(const std::string& key, const std::string& replaced, Json written,
                            bool acted_on) {
  MutexLock lock(mu_);
  recordLocked(key, replaced, std::move(written), acted_on);
}

void WrittenObjects::recordLocked(const std::string& key, const std::string& replaced, Json written,
                                  bool acted_on) {
  std::string version = objectResourceVersion(written);
  Entry& entry = entries_[key];
  entry.replaced.insert(replaced);
  entry.replaced.erase(version);
  if (acted_on && version != replaced) {  // a write that kept its version sends no event
    entry.acted_on.insert(std::move(version));
  }
  entry.object = std::make_shared<const Json>(std::move(written));
}

void WrittenObjects::endWrite(const std::string& key, const std::string* written_version) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return;
  Entry& entry = it->second;
  if (entry.writes_in_flight > 0) --entry.writes_in_flight;
  if (entry.writes_in_flight > 0) return;
  // Whatever else arrived while the write was in flight is someone else's change.
  if (!entry.held.empty()) requeue_.insert(key);
  entry.held.clear();
  if (written_version == nullptr && !entry.object) entries_.erase(it);
}

bool WrittenObjects::isActedOnEcho(const std::string& key, const std::string& resource_version) {
  MutexLock lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return false;
  Entry& entry = it->second;
  if (entry.acted_on.erase(resource_version) > 0) {
    // The cache, updated before its handlers run, shows our last write.
    if (entry.writes_in_flight == 0 && entry.object &&
        objectResourceVersion(*entry.object) == resource_version) {
      entries_.erase(it);
    }
    return true;
  }
  if (entry.writes_in_flight > 0) {
    entry.held.insert(resource_version);  // decided when the write's answer is known
    return true;
  }
  return false;
}

ObjectPtr WrittenObjects::newest(const std::string& key, ObjectPtr cached) {
  MutexLock lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return cached;
  if (it->second.object && cached && it->second.replaced.contains(objectResourceVersion(*cached))) {
    return it->second.object;
  }
  if (it->second.writes_in_flight == 0) entries_.erase(it);
  return cached;
}

bool WrittenObjects::takeRequeue(const std::string& key) {
  MutexLock lock(mu_);
  return requeue_.erase(key) > 0;
}

void WrittenObjects::forget(const std::string& key) {
  MutexLock lock(mu_);
  entries_.erase(key);
  requeue_.erase(key);
}

std::size_t WrittenObjects::size() const {
  MutexLock lock(mu_);
  return entries_.size();
}

}  // namespace kf::sync
