#include "sync/controller/cluster_labels_source.h"

namespace kf::sync {

ClusterLabelsSource::~ClusterLabelsSource() { stop(); }

void ClusterLabelsSource::start(EnqueueTarget& target, Handler handler) {
  MutexLock lock(mu_);
  if (stopped_ || listener_) return;
  listener_ =
      clusters_.subscribe([this, &target, handler = std::move(handler)](const ClusterEvent& event) {
        if (labelsChanged(event)) handler.deliver(nullptr, target);
      });
  // Read after subscribing: a change between the two is then seen by the listener.
  for (const ClusterSnapshot& cluster : clusters_.clusters()) {
    labels_.emplace(cluster.name, cluster.labels);
  }
}

bool ClusterLabelsSource::labelsChanged(const ClusterEvent& event) {
  MutexLock lock(mu_);
  if (event.change == ClusterChange::kRemoved) {
    labels_.erase(event.cluster.name);
    return false;  // its objects' placement changes: the availability source queues them
  }
  auto [entry, added] = labels_.try_emplace(event.cluster.name, event.cluster.labels);
  if (added) return false;  // a new cluster: queued when it becomes available
  if (entry->second == event.cluster.labels) return false;
  entry->second = event.cluster.labels;
  return true;
}

void ClusterLabelsSource::stop() {
  std::optional<ListenerId> listener;
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    listener = listener_;
  }
  // Outside the lock: unsubscribing waits for a notification in progress, which takes it.
  if (listener) clusters_.unsubscribe(*listener);
}

}  // namespace kf::sync
