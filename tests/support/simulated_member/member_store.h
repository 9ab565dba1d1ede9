#pragma once
// One simulated member cluster's objects: the storage and watch side of an API server, without
// HTTP. Every served resource in one map ordered by key (as etcd orders them), one
// resourceVersion counter for the member (as etcd's revision), a bounded history of changes for
// watches that start from a resourceVersion, and the open watches, each told of every change
// that concerns it. Thread-safe: one lock per member.

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <variant>

#include "federation/runtime/thread_annotations.h"
#include "tests/support/simulated_member/api_status.h"
#include "tests/support/simulated_member/selectors.h"
#include "tests/support/simulated_member/served_resources.h"

namespace kf::sim {

enum class EventType { kAdded, kModified, kDeleted };

// A change the store made, for observers (the fleet benchmark records when objects arrive).
struct WriteRecord {
  const std::string& member;
  const ServedResource& resource;
  EventType type;
  const Json& object;  // as stored; for a deletion its last state
};
// Called under the member's lock, in the order of the changes: must be quick and must not call
// back into the store.
using WriteObserver = std::function<void(const WriteRecord&)>;

// The receiving end of one watch: each line one watch event as JSON. Called under the member's
// lock: must queue the line and return.
class WatchSink {
 public:
  virtual ~WatchSink() = default;
  virtual void deliver(std::shared_ptr<const std::string> line) = 0;
};

struct ListQuery {
  Selectors selectors;
  std::string resource_version;
  std::string resource_version_match;
  std::int64_t limit = 0;
  std::string continue_token;
};

using WatchId = std::uint64_t;

class MemberStore {
 public:
  // `history_limit`: how many changes are kept for watches from an older resourceVersion.
  MemberStore(std::string name, std::size_t history_limit, WriteObserver observer = nullptr);

  const std::string& name() const { return name_; }

  Reply get(const ServedResource& resource, const std::string& ns, const std::string& name)
      KF_EXCLUDES(mu_);
  Reply list(const ServedResource& resource, const std::string& ns, const ListQuery& query)
      KF_EXCLUDES(mu_);
  Reply create(const ServedResource& resource, const std::string& ns, Json object, bool dry_run)
      KF_EXCLUDES(mu_);
  // PUT of the object (`status`: of its status subresource).
  Reply update(const ServedResource& resource, const std::string& ns, const std::string& name,
               Json object, bool status, bool dry_run) KF_EXCLUDES(mu_);
  // A JSON merge patch, then as update().
  Reply patch(const ServedResource& resource, const std::string& ns, const std::string& name,
              const Json& patch, bool status, bool dry_run) KF_EXCLUDES(mu_);
  // `options`: a DeleteOptions body (preconditions are honoured) or null.
  Reply remove(const ServedResource& resource, const std::string& ns, const std::string& name,
               const Json& options, bool dry_run) KF_EXCLUDES(mu_);

  // Starts a watch of `resource` in `ns` ("" = all). Without a resourceVersion (or "0") the
  // sink first gets an ADDED event per matching object; from a resourceVersion, every kept
  // change after it. Returns the watch's id, or the 410 Status (an ERROR event to send) when
  // the resourceVersion is older than the kept history, or a 400 reply when it is not a number.
  std::variant<WatchId, Reply> watch(const ServedResource& resource, const std::string& ns,
                                     Selectors selectors, const std::string& resource_version,
                                     std::shared_ptr<WatchSink> sink) KF_EXCLUDES(mu_);
  void stopWatch(WatchId id) KF_EXCLUDES(mu_);
  // Sends the watch a BOOKMARK carrying the newest resourceVersion of a change of its resource,
  // if that is newer than the one it started from (as the API server's watch cache does).
  void bookmark(WatchId id) KF_EXCLUDES(mu_);

  // Forgets the history: a watch from any resourceVersion before now gets 410 Gone.
  void compact() KF_EXCLUDES(mu_);
  std::uint64_t resourceVersion() const KF_EXCLUDES(mu_);
  std::size_t openWatches() const KF_EXCLUDES(mu_);
  std::size_t objectCount() const KF_EXCLUDES(mu_);

 private:
  using ObjectRef = std::shared_ptr<const Json>;
  using Objects = std::map<std::string, ObjectRef>;  // "ns/name" or "name"

  struct Change {
    std::uint64_t resource_version;
    const ServedResource* resource;
    EventType type;
    ObjectRef object;    // as stored; a deletion's last state
    ObjectRef previous;  // before a modification (selectors may have stopped matching)
  };
  struct Watcher {
    const ServedResource* resource;
    std::string ns;
    Selectors selectors;
    std::uint64_t started_at;
    std::shared_ptr<WatchSink> sink;
  };

  Objects& objectsOf(const ServedResource& resource) KF_REQUIRES(mu_);
  ObjectRef find(const ServedResource& resource, const std::string& key) KF_REQUIRES(mu_);
  // A namespaced create's admission: 404 for a missing namespace, 403 for a terminating one.
  std::optional<Reply> admitNamespace(const ServedResource& resource, const std::string& ns,
                                      const std::string& name) KF_REQUIRES(mu_);
  Reply store(const ServedResource& resource, const std::string& key, Json object,
              const ObjectRef& previous, bool dry_run) KF_REQUIRES(mu_);
  Reply replace(const ServedResource& resource, const std::string& ns, const std::string& name,
                Json object, bool status, bool dry_run) KF_REQUIRES(mu_);
  // Removes the object now (a deletion without finalizers, or the last finalizer gone); returns
  // its last state, with the resourceVersion of the deletion.
  Json erase(const ServedResource& resource, const std::string& key, Json last_state)
      KF_REQUIRES(mu_);
  // Marks for deletion (finalizers pending); returns the stored object.
  Json markDeleted(const ServedResource& resource, const std::string& key, const ObjectRef& stored)
      KF_REQUIRES(mu_);
  // A namespace's deletion as the namespace controller completes it: its objects deleted, then
  // the namespace itself once none is left.
  void finalizeNamespace(const std::string& ns) KF_REQUIRES(mu_);
  void removeNamespaceIfEmpty(const std::string& ns) KF_REQUIRES(mu_);
  // Records a change: the history, the watches, the observer.
  void publish(Change change) KF_REQUIRES(mu_);
  // One text per event type, built when a watch first needs it.
  using EventLines = std::array<std::shared_ptr<const std::string>, 3>;
  void deliver(const Change& change, Watcher& watcher, EventLines& lines) KF_REQUIRES(mu_);
  std::uint64_t nextResourceVersion() KF_REQUIRES(mu_);
  std::string newUid() KF_REQUIRES(mu_);

  const std::string name_;
  const std::size_t history_limit_;
  const WriteObserver observer_;
  mutable Mutex mu_;
  std::map<const ServedResource*, Objects> objects_ KF_GUARDED_BY(mu_);
  std::uint64_t resource_version_ KF_GUARDED_BY(mu_) = 1;
  std::map<const ServedResource*, std::uint64_t> last_change_ KF_GUARDED_BY(mu_);
  std::deque<Change> history_ KF_GUARDED_BY(mu_);
  // The history holds every change after this resourceVersion.
  std::uint64_t history_floor_ KF_GUARDED_BY(mu_) = 1;
  std::map<WatchId, Watcher> watchers_ KF_GUARDED_BY(mu_);
  WatchId next_watch_ KF_GUARDED_BY(mu_) = 1;
  std::mt19937_64 random_ KF_GUARDED_BY(mu_);
};

// "ns/name", or "name" for cluster-scoped objects.
std::string storeKey(const ServedResource& resource, const std::string& ns,
                     const std::string& name);

}  // namespace kf::sim
