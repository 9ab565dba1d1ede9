#include "federation/cluster/cluster_registry.h"

#include "federation/cluster/health.h"
#include "federation/metrics/kubefed_metrics.h"

namespace kf {

ClusterSnapshot clusterSnapshotOf(ObjectPtr kubefed_cluster) {
  ClusterSnapshot snapshot;
  snapshot.name = objectName(*kubefed_cluster);
  snapshot.ready = isClusterReady(clusterConditionsOf(*kubefed_cluster));
  snapshot.labels = objectLabels(*kubefed_cluster).value_or(StringMap{});
  snapshot.object = std::move(kubefed_cluster);
  return snapshot;
}

namespace {

// A field of the object, null when the object or the field is missing.
Json fieldOf(const ObjectPtr& object, const Json::json_pointer& pointer) {
  if (object == nullptr || !object->contains(pointer)) return nullptr;
  return object->at(pointer);
}

// Labels and annotations: absent and empty mean the same.
Json mapAt(const ObjectPtr& object, const Json::json_pointer& pointer) {
  Json value = fieldOf(object, pointer);
  return value.is_null() ? Json::object() : value;
}

// What makes holders of state for a cluster rebuild it (ClusterChange::kChanged).
bool changedForListeners(const ClusterSnapshot& before,
                         const std::shared_ptr<RestClient>& before_client,
                         const ClusterSnapshot& after,
                         const std::shared_ptr<RestClient>& after_client) {
  static const Json::json_pointer kSpec("/spec");
  static const Json::json_pointer kAnnotations("/metadata/annotations");
  return before.ready != after.ready || before.labels != after.labels ||
         before_client != after_client ||
         fieldOf(before.object, kSpec) != fieldOf(after.object, kSpec) ||
         mapAt(before.object, kAnnotations) != mapAt(after.object, kAnnotations);
}

// Clears the notifying thread when a writer is done calling listeners.
class NotifyingThreadScope {
 public:
  explicit NotifyingThreadScope(std::atomic<std::thread::id>& slot) : slot_(slot) {
    slot_.store(std::this_thread::get_id());
  }
  ~NotifyingThreadScope() { slot_.store(std::thread::id()); }
  NotifyingThreadScope(const NotifyingThreadScope&) = delete;
  NotifyingThreadScope& operator=(const NotifyingThreadScope&) = delete;

 private:
  std::atomic<std::thread::id>& slot_;
};

}  // namespace

void ClusterRegistry::upsert(ClusterSnapshot cluster, std::shared_ptr<RestClient> client) {
  MutexLock writer(notify_mu_);
  std::optional<ClusterEvent> event;
  ListenerList listeners;
  {
    MutexLock lock(mu_);
    auto it = entries_.find(cluster.name);
    if (it == entries_.end()) {
      event = ClusterEvent{ClusterChange::kAdded, cluster, cluster.ready, false};
    } else if (changedForListeners(it->second.snapshot, it->second.client, cluster, client)) {
      const bool was_ready = it->second.snapshot.ready;
      event = ClusterEvent{ClusterChange::kChanged, cluster, !was_ready && cluster.ready,
                           was_ready && !cluster.ready};
    }
    const std::string name = cluster.name;
    entries_[name] = Entry{std::move(cluster), std::move(client)};
    if (event) listeners = listenersLocked();
  }
  if (event) notifyLocked(*event, listeners);
}

void ClusterRegistry::remove(const std::string& name) {
  MutexLock writer(notify_mu_);
  std::optional<ClusterEvent> event;
  ListenerList listeners;
  {
    MutexLock lock(mu_);
    auto it = entries_.find(name);
    if (it == entries_.end()) return;
    const bool was_ready = it->second.snapshot.ready;
    event = ClusterEvent{ClusterChange::kRemoved, std::move(it->second.snapshot), false, was_ready};
    entries_.erase(it);
    listeners = listenersLocked();
  }
  notifyLocked(*event, listeners);
}

std::vector<ClusterSnapshot> ClusterRegistry::clusters() const {
  MutexLock lock(mu_);
  std::vector<ClusterSnapshot> out;
  out.reserve(entries_.size());
  for (const auto& [name, entry] : entries_) out.push_back(entry.snapshot);
  return out;
}

bool ClusterRegistry::synced() const {
  if (synced_once_.load()) return true;
  std::shared_ptr<const std::function<bool()>> check;
  {
    MutexLock lock(mu_);
    check = synced_check_;
  }
  // Called outside mu_: the writer's check reads the registry.
  if (check && !(*check)()) return false;
  synced_once_.store(true);
  return true;
}

void ClusterRegistry::setSyncedCheck(std::function<bool()> check) {
  MutexLock lock(mu_);
  synced_check_ = check ? std::make_shared<const std::function<bool()>>(std::move(check)) : nullptr;
  synced_once_.store(false);
}

std::optional<ClusterSnapshot> ClusterRegistry::cluster(const std::string& name) const {
  MutexLock lock(mu_);
  auto it = entries_.find(name);
  if (it == entries_.end()) return std::nullopt;
  return it->second.snapshot;
}

Result<std::shared_ptr<RestClient>> ClusterRegistry::client(const std::string& name) const {
  const SteadyTime start = clock_.now();
  std::shared_ptr<RestClient> found;
  {
    MutexLock lock(mu_);
    auto it = entries_.find(name);
    if (it != entries_.end() && it->second.snapshot.ready) found = it->second.client;
  }
  metrics::observeClusterClientConnection(clock_.now() - start);
  if (found == nullptr) {
    return ApiError{Reason::kNotFound, 404, "cluster \"" + name + "\" not found", {}, std::nullopt};
  }
  return found;
}

ListenerId ClusterRegistry::subscribe(ClusterListener listener) {
  MutexLock lock(mu_);
  const ListenerId id = ++next_id_;
  listeners_.emplace(id, std::make_shared<ClusterListener>(std::move(listener)));
  return id;
}

void ClusterRegistry::unsubscribe(ListenerId id) {
  {
    MutexLock lock(mu_);
    listeners_.erase(id);
  }
  if (notifying_thread_.load() == std::this_thread::get_id()) return;  // from a listener
  // A writer that copied the listener before the erase may still be calling it: wait it out.
  MutexLock wait_for_writer(notify_mu_);
}

ClusterRegistry::ListenerList ClusterRegistry::listenersLocked() const {
  return ListenerList(listeners_.begin(), listeners_.end());
}

void ClusterRegistry::notifyLocked(const ClusterEvent& event, const ListenerList& listeners) {
  NotifyingThreadScope scope(notifying_thread_);
  for (const auto& [id, listener] : listeners) {
    {
      // Another listener of this batch may have unsubscribed it.
      MutexLock lock(mu_);
      if (!listeners_.contains(id)) continue;
    }
    (*listener)(event);
  }
}

}  // namespace kf
