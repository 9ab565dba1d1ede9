#include "federation/informer/informer_manager.h"

#include <utility>

namespace kf {

// Shared by the manager and its leases, so a lease released after the manager is gone still
// finds somewhere to report to.
struct InformerLease::Registry {
  struct Entry {
    std::shared_ptr<SharedInformer> informer;
    std::size_t leases = 0;
  };

  // Drops one lease of `informer`; returns it if that was the last, for the caller to stop
  // outside the lock (stopping joins threads).
  std::shared_ptr<SharedInformer> drop(const InformerKey& key, const SharedInformer* informer) {
    MutexLock lock(mu);
    auto it = entries.find(key);
    // A stopAll() (or a restart of the key after it) may have replaced the entry: not ours.
    if (it == entries.end() || it->second.informer.get() != informer) {
      return nullptr;
    }
    if (--it->second.leases > 0) {
      return nullptr;
    }
    std::shared_ptr<SharedInformer> last = std::move(it->second.informer);
    entries.erase(it);
    return last;
  }

  Mutex mu;
  std::map<InformerKey, Entry> entries KF_GUARDED_BY(mu);
  bool stopped KF_GUARDED_BY(mu) = false;
};

std::string describe(const InformerKey& key) {
  std::string out = key.cluster + " " + key.resource.apiVersion() + "/" + key.resource.resource;
  if (!key.namespace_name.empty()) {
    out += " ns=" + key.namespace_name;
  }
  if (!key.label_selector.empty()) {
    out += " labels=" + key.label_selector;
  }
  if (!key.field_selector.empty()) {
    out += " fields=" + key.field_selector;
  }
  return out;
}

InformerLease::InformerLease(InformerLease&& other) noexcept
    : registry_(std::move(other.registry_)),
      key_(std::move(other.key_)),
      informer_(std::move(other.informer_)),
      handlers_(std::move(other.handlers_)) {
  other.informer_.reset();
  other.handlers_.clear();
}

InformerLease& InformerLease::operator=(InformerLease&& other) noexcept {
  if (this != &other) {
    release();
    registry_ = std::move(other.registry_);
    key_ = std::move(other.key_);
    informer_ = std::move(other.informer_);
    handlers_ = std::move(other.handlers_);
    other.informer_.reset();
    other.handlers_.clear();
  }
  return *this;
}

HandlerId InformerLease::addEventHandler(std::shared_ptr<EventHandler> handler,
                                         std::optional<Duration> resync) {
  const HandlerId id = informer_->addEventHandler(std::move(handler), resync);
  handlers_.push_back(id);
  return id;
}

void InformerLease::release() {
  if (informer_ == nullptr) {
    return;
  }
  for (HandlerId id : handlers_) {
    informer_->removeEventHandler(id);
  }
  handlers_.clear();
  if (std::shared_ptr<SharedInformer> last = registry_->drop(key_, informer_.get())) {
    last->stop();
  }
  informer_.reset();
  registry_.reset();
}

InformerManager::InformerManager(ListerWatcherFactory factory, Clock& clock,
                                 SharedInformerOptions options)
    : registry_(std::make_shared<InformerLease::Registry>()),
      factory_(std::move(factory)),
      clock_(clock),
      options_(std::move(options)) {}

InformerManager::~InformerManager() { stopAll(); }

Result<InformerLease> InformerManager::acquire(const InformerKey& key) {
  // Creation happens under the lock, so two racing acquires of a new key make one informer.
  MutexLock lock(registry_->mu);
  if (registry_->stopped) {
    return makeError(Reason::kCancelled, "informer manager stopped");
  }
  auto it = registry_->entries.find(key);
  if (it == registry_->entries.end()) {
    ListerWatcherPtr lister_watcher = factory_(key);
    if (lister_watcher == nullptr) {
      return makeError(Reason::kBadConfig, "no lister/watcher for " + describe(key));
    }
    SharedInformerOptions options = options_;
    if (options.reflector.name.empty()) {
      options.reflector.name = describe(key);
    }
    auto informer =
        std::make_shared<SharedInformer>(std::move(lister_watcher), clock_, std::move(options));
    informer->start();
    it = registry_->entries.emplace(key, InformerLease::Registry::Entry{std::move(informer), 0})
             .first;
  }
  ++it->second.leases;
  return InformerLease(registry_, key, it->second.informer);
}

std::size_t InformerManager::liveInformerCount() const {
  MutexLock lock(registry_->mu);
  return registry_->entries.size();
}

void InformerManager::stopAll() {
  std::map<InformerKey, InformerLease::Registry::Entry> entries;
  {
    MutexLock lock(registry_->mu);
    registry_->stopped = true;
    entries.swap(registry_->entries);
  }
  for (auto& [key, entry] : entries) {
    entry.informer->stop();
  }
}

}  // namespace kf
