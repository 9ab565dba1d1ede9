#pragma once
// Hands out shared informers, one per (cluster, resource, namespace, selectors), so that every
// controller interested in the same objects shares one list/watch and one cache. An informer
// starts with its first lease and is stopped and destroyed when its last lease is released.

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "federation/client/list_options.h"
#include "federation/client/watch.h"
#include "federation/informer/shared_informer.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

struct InformerKey {
  std::string cluster;
  GroupVersionResource resource;
  std::string namespace_name;  // "" = all namespaces (or a cluster-scoped resource)
  std::string label_selector;
  std::string field_selector;

  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads a defaulted <=>
  auto operator<=>(const InformerKey&) const = default;
};

// "cluster1 apps/v1/deployments ns=default labels=app=x fields="
std::string describe(const InformerKey& key);

// Builds the ListerWatcher for a key: the right cluster's client, the resource's URL, the
// namespace and the selectors. Called with the manager's lock held: keep it quick and do not call
// back into the manager. Returning null makes acquire() fail.
using ListerWatcherFactory = std::function<ListerWatcherPtr(const InformerKey&)>;

class InformerManager;

// Keeps one shared informer alive and running. Move-only. Handlers added through the lease are
// removed when it is released, so releasing never leaves a handler behind on an informer others
// still use.
class InformerLease {
 public:
  InformerLease() = default;
  InformerLease(InformerLease&& other) noexcept;
  InformerLease& operator=(InformerLease&& other) noexcept;
  InformerLease(const InformerLease&) = delete;
  InformerLease& operator=(const InformerLease&) = delete;
  ~InformerLease() { release(); }

  explicit operator bool() const { return informer_ != nullptr; }
  // Only on a held lease.
  SharedInformer& informer() const { return *informer_; }
  SharedInformer* operator->() const { return informer_.get(); }
  const InformerKey& key() const { return key_; }

  // SharedInformer::addEventHandler, undone by release().
  HandlerId addEventHandler(std::shared_ptr<EventHandler> handler,
                            std::optional<Duration> resync = std::nullopt);
  // Removes this lease's handlers and gives up the informer, stopping it if this was the last
  // lease. Idempotent. Must not be called from a handler of the same informer if that would
  // release the last lease.
  void release();

 private:
  friend class InformerManager;
  struct Registry;

  InformerLease(std::shared_ptr<Registry> registry, InformerKey key,
                std::shared_ptr<SharedInformer> informer)
      : registry_(std::move(registry)), key_(std::move(key)), informer_(std::move(informer)) {}

  std::shared_ptr<Registry> registry_;  // outlives the manager if a lease does
  InformerKey key_;
  std::shared_ptr<SharedInformer> informer_;
  std::vector<HandlerId> handlers_;
};

class InformerManager {
 public:
  // `clock` must outlive every informer, i.e. every lease.
  InformerManager(ListerWatcherFactory factory, Clock& clock, SharedInformerOptions options = {});
  // stopAll().
  ~InformerManager();
  InformerManager(const InformerManager&) = delete;
  InformerManager& operator=(const InformerManager&) = delete;

  // The running informer for `key`, created and started if no lease holds one. Fails if the
  // factory returns no ListerWatcher or the manager was stopped.
  Result<InformerLease> acquire(const InformerKey& key);
  // Informers with at least one lease.
  std::size_t liveInformerCount() const;
  // Stops every informer now, leases or not; later acquires fail. Outstanding leases stay safe to
  // use and release, over a stopped informer.
  void stopAll();

 private:
  std::shared_ptr<InformerLease::Registry> registry_;
  ListerWatcherFactory factory_;
  Clock& clock_;
  const SharedInformerOptions options_;
};

}  // namespace kf
