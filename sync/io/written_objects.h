#pragma once
// The federated objects this controller wrote itself (finalizer patch, status update) that the
// host cache may not show yet. A watch event arrives some milliseconds after the write returns,
// and the reconcile the previous write's event queued can start in between: on the cached,
// older object it would write the status again (refused with Conflict, re-read, found
// unchanged) -- a wasted request against the host client's rate limit (KubeFed's default: 5 per
// second). With the object the server returned instead, that reconcile writes nothing.
//
// Only exact matches count: the cached object is replaced only when its resourceVersion is one
// our own writes replaced (resourceVersions are opaque, never compared by order). Any other
// cached version (ours arrived, or someone else wrote since) is newer: the entry is dropped.
//
// The same record tells the watch which events are the echoes of our own writes. A write whose
// content the writing reconcile acted on (the finalizer patch it went on with, a status write
// that did not first have to re-read a newer object) needs no reconcile when its event arrives:
// it would find nothing to do. KubeFed queues the object anyway (the queue mostly merges that
// with the reconcile in progress). Not queueing it also lets the record go as soon as the event
// of our last write arrives, rather than at the object's next reconcile, which halves the
// memory a propagation holds per object. Anything else still queues the object.

#include <cstddef>
#include <map>
#include <set>
#include <string>

#include "apis/meta/object.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::sync {

class WrittenObjects {
 public:
  // One write of ours in flight, from before it is sent until its answer is recorded. The echo of
  // a write can reach the informer before the answer reaches the writer (a third of the echoes
  // did in a propagation of 2,000 objects): an update event of the key that is not a known echo
  // is held back meanwhile, and once the answer is known it is either that write's echo (dropped)
  // or someone else's change, for which the key is marked to be reconciled again (takeRequeue).
  // A write that failed or was not sent is abandoned by the destructor.
  class PendingWrite {
   public:
    PendingWrite(WrittenObjects& objects, std::string key);
    ~PendingWrite();
    PendingWrite(const PendingWrite&) = delete;
    PendingWrite& operator=(const PendingWrite&) = delete;
    // As WrittenObjects::record, for this write's answer; ends the write.
    void record(const std::string& replaced, Json written, bool acted_on);

   private:
    WrittenObjects& objects_;
    std::string key_;
    bool ended_ = false;
  };
  PendingWrite beginWrite(const std::string& key) { return PendingWrite(*this, key); }
  // Whether an event held back during a write of `key` was someone else's change; clears it.
  bool takeRequeue(const std::string& key) KF_EXCLUDES(mu_);

  // `written` is what the server returned for a write made on the object at `replaced`
  // resourceVersion. `acted_on`: the reconcile that wrote it acted on everything it holds.
  void record(const std::string& key, const std::string& replaced, Json written, bool acted_on)
      KF_EXCLUDES(mu_);
  // Whether a watch event's object `key` at `resource_version` needs no reconcile now: a write
  // of ours that its reconcile acted on (see above; each echo is recognised once, that of our
  // last write also ends the entry), or an event held back while a write is in flight.
  bool isActedOnEcho(const std::string& key, const std::string& resource_version) KF_EXCLUDES(mu_);
  // The object to reconcile: our newer write when `cached` is a version it replaced, else
  // `cached` (and the entry is dropped: the cache has caught up).
  ObjectPtr newest(const std::string& key, ObjectPtr cached) KF_EXCLUDES(mu_);
  void forget(const std::string& key) KF_EXCLUDES(mu_);
  std::size_t size() const KF_EXCLUDES(mu_);  // objects remembered

 private:
  struct Entry {
    std::set<std::string> replaced;  // resourceVersions older than `object`
    std::set<std::string> acted_on;  // resourceVersions of our writes that need no reconcile
    ObjectPtr object;                // null while only a write is in flight
    int writes_in_flight = 0;
    std::set<std::string> held;  // events that arrived while a write was in flight
  };
  void recordLocked(const std::string& key, const std::string& replaced, Json written,
                    bool acted_on) KF_REQUIRES(mu_);
  // Ends a write of `key`; `written_version`: of its answer, null when it failed or was not sent.
  void endWrite(const std::string& key, const std::string* written_version) KF_REQUIRES(mu_);

  mutable Mutex mu_;
  std::map<std::string, Entry> entries_ KF_GUARDED_BY(mu_);
  std::set<std::string> requeue_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::sync
