#pragma once
// The member clusters the control plane knows: every KubeFedCluster, whether it is ready, its
// labels, and (for ready clusters) a client. The KubeFedCluster controller writes it; every other
// controller reads it and subscribes to be told when a cluster joins, leaves, or changes.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "apis/meta/api_error.h"
#include "federation/client/list_options.h"
#include "federation/client/rest_client.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

struct ClusterSnapshot {
  std::string name;
  bool ready = false;  // has condition Ready=True
  std::map<std::string, std::string> labels;
  ObjectPtr object;  // the KubeFedCluster as last seen
};

// The snapshot of a KubeFedCluster object: its name, readiness (status conditions) and labels.
ClusterSnapshot clusterSnapshotOf(ObjectPtr kubefed_cluster);

enum class ClusterChange {
  kAdded,    // a new cluster (ready or not)
  kRemoved,  // the KubeFedCluster is gone
  // Readiness, spec, labels or annotations changed: whoever holds state for the cluster (an
  // informer on it, a client) drops it and, if the cluster is ready, builds it again.
  kChanged,
};

struct ClusterEvent {
  ClusterChange change;
  ClusterSnapshot cluster;          // after the change (for kRemoved: the last state)
  bool became_available = false;    // ready now and not before (or new and ready)
  bool became_unavailable = false;  // was ready and is not now (or removed)
};

using ClusterListener = std::function<void(const ClusterEvent&)>;
using ListenerId = std::uint64_t;

class ClusterRegistry {
 public:
  // `clock` times client lookups (cluster_client_connection_duration_seconds).
  explicit ClusterRegistry(Clock& clock) : clock_(clock) {}

  // Writers (the KubeFedCluster controller). `client` may be null when it could not be built.
  // An upsert notifies kAdded for a new name, kChanged when readiness, spec, labels,
  // annotations or the client changed, and nothing otherwise (e.g. only the status' probe
  // times moved). remove() of an unknown name does nothing.
  void upsert(ClusterSnapshot cluster, std::shared_ptr<RestClient> client)
      KF_EXCLUDES(mu_, notify_mu_);
  void remove(const std::string& name) KF_EXCLUDES(mu_, notify_mu_);

  // Readers.
  std::vector<ClusterSnapshot> clusters() const KF_EXCLUDES(mu_);  // sorted by name
  std::optional<ClusterSnapshot> cluster(const std::string& name) const KF_EXCLUDES(mu_);
  // The member client of a ready cluster; NotFound "cluster %q not found" otherwise.
  Result<std::shared_ptr<RestClient>> client(const std::string& name) const KF_EXCLUDES(mu_);

  // Whether the registry holds every KubeFedCluster that existed when its writer started, so
  // that a reader may take a cluster's absence for absence (KubeFed's controllers wait for the
  // KubeFedCluster informer's sync for the same reason: an empty list read too early places a
  // federated object nowhere and drops its recorded versions). The writer's check decides until
  // it first says yes; without one (a registry filled by hand) it is synced.
  bool synced() const KF_EXCLUDES(mu_);
  void setSyncedCheck(std::function<bool()> check) KF_EXCLUDES(mu_);

  // Listeners are called after the registry changed, outside its lock, in order of changes, on
  // the writer's thread; they must be quick (enqueue work, do not block on the network). They may
  // read the registry and unsubscribe, but must not call upsert() or remove(). A new listener is
  // not told about clusters already known: read clusters() after subscribing.
  ListenerId subscribe(ClusterListener listener) KF_EXCLUDES(mu_);
  // When this returns the listener is not running and will not be called again (unless it is
  // called from the listener itself).
  void unsubscribe(ListenerId id) KF_EXCLUDES(mu_, notify_mu_);

 private:
  struct Entry {
    ClusterSnapshot snapshot;
    std::shared_ptr<RestClient> client;
  };
  using ListenerList = std::vector<std::pair<ListenerId, std::shared_ptr<ClusterListener>>>;
  ListenerList listenersLocked() const KF_REQUIRES(mu_);
  void notifyLocked(const ClusterEvent& event, const ListenerList& listeners)
      KF_REQUIRES(notify_mu_) KF_EXCLUDES(mu_);

  Clock& clock_;
  mutable Mutex mu_;
  std::map<std::string, Entry> entries_ KF_GUARDED_BY(mu_);
  std::map<ListenerId, std::shared_ptr<ClusterListener>> listeners_ KF_GUARDED_BY(mu_);
  ListenerId next_id_ KF_GUARDED_BY(mu_) = 0;
  std::shared_ptr<const std::function<bool()>> synced_check_ KF_GUARDED_BY(mu_);
  mutable std::atomic<bool> synced_once_{false};  // the check said yes once: it stays so
  // Held by a writer across its change and the notifications it causes (taken before mu_), so
  // listeners see changes in the order they were made; unsubscribe() takes it to wait for a
  // notification in progress.
  Mutex notify_mu_;
  // The thread holding notify_mu_ while it calls listeners, so that a listener unsubscribing
  // itself does not wait for itself.
  std::atomic<std::thread::id> notifying_thread_{};
};

}  // namespace kf
