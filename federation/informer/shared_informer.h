#pragma once
// One cache of one resource, fed by a Reflector, shared by any number of event handlers. Each
// handler gets its own queue, delivered on its own lane of a shared dispatch pool (no thread per
// handler): a slow handler delays only itself (as long as the pool has another thread), and
// every handler sees every change in order, one call at a time, never while a cache lock is
// held.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "federation/client/watch.h"
#include "federation/informer/reflector.h"
#include "federation/informer/store.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/task_pool.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

// A delete as a handler sees it. When the informer missed the DELETED event (it was disconnected
// and found the object gone on re-list), `last_known` is the last state it had cached and
// `final_state_unknown` is set.
struct DeletedObject {
  ObjectPtr last_known;
  bool final_state_unknown = false;
  std::string key;
};

// Called on a dispatch pool thread, one call at a time per handler. A handler must not call stop()
// of the informer that calls it, nor block for long: handlers share the pool's few threads.
class EventHandler {
 public:
  virtual ~EventHandler() = default;
  // `is_initial_list`: the object came with the informer's first list (or, for a handler added
  // later, with the replay of the cache it was given on registration).
  virtual void onAdd(const ObjectPtr& object, bool is_initial_list) = 0;
  // Also called with old == new on a resync.
  virtual void onUpdate(const ObjectPtr& old_object, const ObjectPtr& new_object) = 0;
  virtual void onDelete(const DeletedObject& deleted) = 0;
};

// An EventHandler from lambdas; unset ones are skipped.
class EventHandlerFuncs final : public EventHandler {
 public:
  std::function<void(const ObjectPtr&, bool)> on_add;
  std::function<void(const ObjectPtr&, const ObjectPtr&)> on_update;
  std::function<void(const DeletedObject&)> on_delete;

  void onAdd(const ObjectPtr& object, bool is_initial_list) override {
    if (on_add) on_add(object, is_initial_list);
  }
  void onUpdate(const ObjectPtr& old_object, const ObjectPtr& new_object) override {
    if (on_update) on_update(old_object, new_object);
  }
  void onDelete(const DeletedObject& deleted) override {
    if (on_delete) on_delete(deleted);
  }
};

using HandlerId = std::uint64_t;

struct SharedInformerOptions {
  // Resync period of handlers registered without their own; zero: no resync.
  Duration default_resync{0};
  ReflectorOptions reflector;
  // Where handlers are called; null: the process's dispatchPool(). Must outlive the informer.
  TaskPool* dispatch = nullptr;
};

class SharedInformer : private ReflectorSink {
 public:
  SharedInformer(ListerWatcherPtr lister_watcher, Clock& clock, SharedInformerOptions options = {});
  // Stops.
  ~SharedInformer() override;
  SharedInformer(const SharedInformer&) = delete;
  SharedInformer& operator=(const SharedInformer&) = delete;

  // Only before start(): indexes must cover every object from the first list on.
  Status addIndexers(Indexers indexers) KF_EXCLUDES(mu_);

  // Registers a handler, which at once receives an add for every cached object if the first
  // list is in. `resync`: nullopt takes the informer's default; zero disables; otherwise every
  // period the handler gets onUpdate(o, o) for every cached object. Allowed before and after
  // start(); after stop() it returns an id but the handler is never called.
  HandlerId addEventHandler(std::shared_ptr<EventHandler> handler,
                            std::optional<Duration> resync = std::nullopt) KF_EXCLUDES(mu_);
  // Stops calling the handler; when this returns no call is in progress (unless it is called
  // from that handler itself). Unknown ids are ignored.
  void removeEventHandler(HandlerId id) KF_EXCLUDES(mu_);
  // True once the handler has been given (and has returned from) every add of the first list.
  bool handlerSynced(HandlerId id) const KF_EXCLUDES(mu_);

  // Starts listing and watching. A second call, or a call after stop(), does nothing.
  void start() KF_EXCLUDES(mu_);
  // Stops the reflector and the resync timers, drops undelivered notifications, waits for the
  // handler calls in progress and unregisters every handler. Idempotent.
  void stop() KF_EXCLUDES(mu_);

  // True once the first list is in the cache.
  bool hasSynced() const KF_EXCLUDES(mu_);
  // Blocks the calling thread until synced, stopped, or `deadline` on the steady (real) clock.
  bool waitForSync(SteadyTime deadline) const KF_EXCLUDES(mu_);
  std::string lastSyncResourceVersion() const { return reflector_.lastSyncResourceVersion(); }

  // The cache, for reads. Never write to it.
  const Store& store() const { return store_; }

 private:
  class Listener;

  // ReflectorSink, called by the reflector (a pool or I/O thread).
  Store::Replacement beginReplace() override { return store_.beginReplace(); }
  void replace(Store::Replacement content, std::string resource_version) override KF_EXCLUDES(mu_);
  void added(ObjectPtr object) override KF_EXCLUDES(mu_);
  void modified(ObjectPtr object) override KF_EXCLUDES(mu_);
  void deleted(ObjectPtr object) override KF_EXCLUDES(mu_);

  void armResyncLocked(HandlerId id, Duration period) KF_REQUIRES(mu_);
  void resync(HandlerId id, Duration period) KF_EXCLUDES(mu_);
  // Delivers the handler's view of the first list: an add per cached object, then a marker.
  void replayCacheLocked(Listener& listener) KF_REQUIRES(mu_);

  Clock& clock_;
  const SharedInformerOptions options_;
  const ListerWatcherPtr lister_watcher_;
  TaskPool& dispatch_pool_;
  Store store_;

  // Held across each store write and the notifications it causes, so every handler sees changes
  // in store order, and a handler being added sees each change either in its replay or later.
  mutable Mutex mu_;
  mutable std::condition_variable synced_cv_;
  std::map<HandlerId, std::unique_ptr<Listener>> listeners_ KF_GUARDED_BY(mu_);
  std::map<HandlerId, Duration> resync_periods_ KF_GUARDED_BY(mu_);
  std::map<HandlerId, TimerHandlePtr> resync_timers_ KF_GUARDED_BY(mu_);
  // The last resync timer that fired per handler: its callback may still be running.
  std::map<HandlerId, TimerHandlePtr> resync_fired_ KF_GUARDED_BY(mu_);
  HandlerId next_id_ KF_GUARDED_BY(mu_) = 0;
  bool started_ KF_GUARDED_BY(mu_) = false;
  bool stopped_ KF_GUARDED_BY(mu_) = false;
  bool synced_ KF_GUARDED_BY(mu_) = false;

  Reflector reflector_;  // after everything it calls into
};

}  // namespace kf
