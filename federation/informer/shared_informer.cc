#include "federation/informer/shared_informer.h"

#include <atomic>
#include <deque>
#include <optional>
#include <utility>
#include <variant>

#include "federation/informer/compact_object.h"

namespace kf {
namespace {

// An object a notification carries: the tree of a watch event, or the cache's compact text of a
// listed one, parsed only when its handler is called. A first list of N objects waiting for the
// handlers is so N texts, not N trees.
class NotedObject {
 public:
  explicit NotedObject(ObjectPtr tree) : tree_(std::move(tree)) {}
  explicit NotedObject(std::string compact_text) : text_(std::move(compact_text)) {}
  ObjectPtr get() const { return tree_ != nullptr ? tree_ : fromCompactText(text_); }

 private:
  ObjectPtr tree_;
  std::string text_;
};

struct AddNote {
  NotedObject object;
  bool initial = false;
};
struct UpdateNote {
  NotedObject old_object;
  NotedObject new_object;
};
// A resync: the handler gets the cached object as both old and new.
struct ResyncNote {
  NotedObject object;
};
struct DeleteNote {
  DeletedObject deleted;
};
// Follows the last add of the first list in a handler's queue.
struct SyncedNote {};
using Notification = std::variant<AddNote, UpdateNote, ResyncNote, DeleteNote, SyncedNote>;
using Notifications = std::vector<Notification>;

// What a store write means to a handler: an upsert of a new key is an add.
Notification upsertNote(ObjectPtr old_object, ObjectPtr new_object) {
  if (old_object == nullptr) {
    return AddNote{NotedObject(std::move(new_object)), false};
  }
  return UpdateNote{NotedObject(std::move(old_object)), NotedObject(std::move(new_object))};
}

}  // namespace

// One handler's queue, drained by tasks on the handler's own lane of the dispatch pool: one call
// at a time, in order. The queue is unbounded: the informer must never wait for a handler.
class SharedInformer::Listener {
 public:
  Listener(std::shared_ptr<EventHandler> handler, TaskPool& pool)
      : state_(std::make_shared<State>(std::move(handler))), lane_(pool) {}
  ~Listener() { stop(); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // Called under the informer's lock: it queues, and never calls the handler.
  void push(const Notifications& notes) {
    if (notes.empty()) {
      return;
    }
    {
      MutexLock lock(state_->mu);
      if (state_->stopped) {
        return;
      }
      state_->queue.insert(state_->queue.end(), notes.begin(), notes.end());
      if (state_->draining) {
        return;  // the drain on the lane will get to them
      }
      state_->draining = true;
    }
    submitDrain(state_, lane_);
  }

  // Drops what is queued and waits for a call in progress, unless it is made from the handler.
  void stop() {
    std::deque<Notification> dropped;  // freed after the lock is released
    {
      MutexLock lock(state_->mu);
      state_->stopped = true;
      dropped.swap(state_->queue);
    }
    lane_.close();
  }

  bool synced() const { return state_->synced.load(); }

 private:
  // A drain delivers at most this many notifications, then queues itself behind the other
  // lanes' work, so that a handler with a long backlog does not keep a pool thread to itself.
  static constexpr std::size_t kDeliveriesPerDrain = 64;

  struct State {
    explicit State(std::shared_ptr<EventHandler> h) : handler(std::move(h)) {}
    const std::shared_ptr<EventHandler> handler;
    Mutex mu;
    std::deque<Notification> queue KF_GUARDED_BY(mu);
    bool draining KF_GUARDED_BY(mu) = false;  // a drain is on the lane, queued or running
    bool stopped KF_GUARDED_BY(mu) = false;
    std::atomic<bool> synced{false};
  };

  // The drain holds the state, not the listener: a handler may remove itself, destroying the
  // listener while its call is in progress. `lane` is used only while the listener is not
  // stopped, and stop() waits for a running drain unless the drain's own handler called it, in
  // which case the drain sees `stopped` first.
  static void submitDrain(const std::shared_ptr<State>& state, TaskLane& lane) {
    lane.submit([state, &lane](bool cancelled) {
      if (!cancelled) {
        drain(state, lane);
      }
    });
  }

  static void drain(const std::shared_ptr<State>& state, TaskLane& lane) {
    for (std::size_t delivered = 0; delivered < kDeliveriesPerDrain; ++delivered) {
      std::optional<Notification> note = takeNext(*state);
      if (!note) {
        return;
      }
      deliver(*state, *note);
    }
    {
      MutexLock lock(state->mu);
      if (state->stopped) {
        return;
      }
      if (state->queue.empty()) {
        state->draining = false;
        return;
      }
    }
    submitDrain(state, lane);
  }

  // The next notification, or none when the queue is empty (the drain ends) or stopped.
  static std::optional<Notification> takeNext(State& state) {
    MutexLock lock(state.mu);
    if (state.stopped) {
      return std::nullopt;
    }
    if (state.queue.empty()) {
      state.draining = false;
      return std::nullopt;
    }
    Notification note = std::move(state.queue.front());
    state.queue.pop_front();
    return note;
  }

  static void deliver(State& state, const Notification& note) {
    EventHandler& handler = *state.handler;
    if (const auto* add = std::get_if<AddNote>(&note)) {
      handler.onAdd(add->object.get(), add->initial);
    } else if (const auto* update = std::get_if<UpdateNote>(&note)) {
      handler.onUpdate(update->old_object.get(), update->new_object.get());
    } else if (const auto* resync = std::get_if<ResyncNote>(&note)) {
      const ObjectPtr object = resync->object.get();
      handler.onUpdate(object, object);
    } else if (const auto* del = std::get_if<DeleteNote>(&note)) {
      handler.onDelete(del->deleted);
    } else {
      state.synced.store(true);
    }
  }

  std::shared_ptr<State> state_;
  TaskLane lane_;
};

SharedInformer::SharedInformer(ListerWatcherPtr lister_watcher, Clock& clock,
                               SharedInformerOptions options)
    : clock_(clock),
      options_(std::move(options)),
      lister_watcher_(std::move(lister_watcher)),
      dispatch_pool_(options_.dispatch != nullptr ? *options_.dispatch : dispatchPool()),
      reflector_(*lister_watcher_, *this, clock, options_.reflector) {}

// stop() cancels the resync timers, waiting for a callback in progress.
SharedInformer::~SharedInformer() { stop(); }

Status SharedInformer::addIndexers(Indexers indexers) {
  {
    MutexLock lock(mu_);
    if (started_) {
      return makeError(Reason::kBadRequest, "indexers must be added before the informer starts");
    }
  }
  return store_.addIndexers(std::move(indexers));
}

HandlerId SharedInformer::addEventHandler(std::shared_ptr<EventHandler> handler,
                                          std::optional<Duration> resync) {
  MutexLock lock(mu_);
  const HandlerId id = ++next_id_;
  if (stopped_) {
    return id;
  }
  auto listener = std::make_unique<Listener>(std::move(handler), dispatch_pool_);
  replayCacheLocked(*listener);
  listeners_.emplace(id, std::move(listener));
  const Duration period = resync.value_or(options_.default_resync);
  if (period > Duration::zero()) {
    resync_periods_.emplace(id, period);
    if (started_) {
      armResyncLocked(id, period);
    }
  }
  return id;
}

void SharedInformer::removeEventHandler(HandlerId id) {
  std::unique_ptr<Listener> listener;
  TimerHandlePtr timer;
  TimerHandlePtr fired;
  {
    MutexLock lock(mu_);
    if (auto it = listeners_.find(id); it != listeners_.end()) {
      listener = std::move(it->second);
      listeners_.erase(it);
    }
    if (auto it = resync_timers_.find(id); it != resync_timers_.end()) {
      timer = std::move(it->second);
      resync_timers_.erase(it);
    }
    if (auto it = resync_fired_.find(id); it != resync_fired_.end()) {
      fired = std::move(it->second);
      resync_fired_.erase(it);
    }
    resync_periods_.erase(id);
  }
  // All outside the lock: a resync in progress takes it, the handler may be calling into this
  // informer right now, and the listener waits for it to return.
  timer.reset();
  fired.reset();
  listener.reset();
}

bool SharedInformer::handlerSynced(HandlerId id) const {
  MutexLock lock(mu_);
  auto it = listeners_.find(id);
  return it != listeners_.end() && it->second->synced();
}

void SharedInformer::start() {
  {
    MutexLock lock(mu_);
    if (started_ || stopped_) {
      return;
    }
    started_ = true;
    for (const auto& [id, period] : resync_periods_) {
      armResyncLocked(id, period);
    }
  }
  reflector_.start();
}

void SharedInformer::stop() {
  std::map<HandlerId, std::unique_ptr<Listener>> listeners;
  std::map<HandlerId, TimerHandlePtr> timers;
  std::map<HandlerId, TimerHandlePtr> fired;
  {
    MutexLock lock(mu_);
    stopped_ = true;
    timers.swap(resync_timers_);
    fired.swap(resync_fired_);
    resync_periods_.clear();
  }
  synced_cv_.notify_all();
  // Outside mu_: cancelling waits for a resync in progress, which takes it.
  timers.clear();
  fired.clear();
  // The reflector calls back into this informer under mu_, so it is joined without it.
  reflector_.stop();
  {
    MutexLock lock(mu_);
    listeners.swap(listeners_);
  }
  listeners.clear();  // waits for each handler's call in progress
}

bool SharedInformer::hasSynced() const {
  MutexLock lock(mu_);
  return synced_;
}

bool SharedInformer::waitForSync(SteadyTime deadline) const {
  MutexLock lock(mu_);
  while (!synced_ && !stopped_) {
    if (synced_cv_.wait_until(lock.native(), deadline) == std::cv_status::timeout) {
      break;
    }
  }
  return synced_;
}

void SharedInformer::replace(Store::Replacement content, std::string resource_version) {
  {
    MutexLock lock(mu_);
    const bool initial = !synced_;
    ReplaceResult diff = store_.replace(std::move(content), std::move(resource_version));
    Notifications notes;
    notes.reserve(diff.added.size() + diff.removed.size() + (initial ? 1 : 0));
    for (std::string& text : diff.added) {
      notes.emplace_back(AddNote{NotedObject(std::move(text)), initial});
    }
    // A re-list reports every surviving object; only those that changed are news to handlers.
    // The texts are canonical (sorted keys), so the same object gives the same text.
    for (auto& [old_text, new_text] : diff.updated) {
      if (old_text != new_text) {
        notes.emplace_back(
            UpdateNote{NotedObject(std::move(old_text)), NotedObject(std::move(new_text))});
      }
    }
    // Gone while we were not watching: all we know is how the object last looked.
    for (const std::string& text : diff.removed) {
      ObjectPtr object = fromCompactText(text);
      std::string key = objectKey(*object);
      notes.emplace_back(DeleteNote{DeletedObject{std::move(object), true, std::move(key)}});
    }
    if (initial) {
      notes.emplace_back(SyncedNote{});
    }
    for (auto& [id, listener] : listeners_) {
      listener->push(notes);
    }
    synced_ = true;
  }
  synced_cv_.notify_all();
}

void SharedInformer::added(ObjectPtr object) {
  MutexLock lock(mu_);
  ObjectPtr old_object = store_.add(object);
  const Notifications notes{upsertNote(std::move(old_object), std::move(object))};
  for (auto& [id, listener] : listeners_) {
    listener->push(notes);
  }
}

void SharedInformer::modified(ObjectPtr object) {
  // The store cannot tell an add from an update; what it held before decides.
  added(std::move(object));
}

void SharedInformer::deleted(ObjectPtr object) {
  MutexLock lock(mu_);
  std::string key = objectKey(*object);
  if (store_.remove(key) == nullptr) {
    return;  // never cached, so no handler has heard of it
  }
  const Notifications notes{DeleteNote{DeletedObject{std::move(object), false, std::move(key)}}};
  for (auto& [id, listener] : listeners_) {
    listener->push(notes);
  }
}

void SharedInformer::armResyncLocked(HandlerId id, Duration period) {
  // The replaced handle is the one whose callback runs this (resync()), or none: it moves to
  // resync_fired_, so that stop() can wait for that callback. Everything else cancels outside mu_.
  TimerHandlePtr& armed = resync_timers_[id];
  resync_fired_[id] =
      std::exchange(armed, clock_.runAfter(period, [this, id, period] { resync(id, period); }));
}

void SharedInformer::resync(HandlerId id, Duration period) {
  MutexLock lock(mu_);
  auto it = listeners_.find(id);
  if (stopped_ || it == listeners_.end()) {
    return;
  }
  Notifications notes;
  for (std::string& text : store_.compactTexts()) {
    notes.emplace_back(ResyncNote{NotedObject(std::move(text))});
  }
  it->second->push(notes);
  armResyncLocked(id, period);
}

void SharedInformer::replayCacheLocked(Listener& listener) {
  if (!synced_) {
    return;  // the first list will reach this handler like every other
  }
  Notifications notes;
  for (std::string& text : store_.compactTexts()) {
    notes.emplace_back(AddNote{NotedObject(std::move(text)), true});
  }
  notes.emplace_back(SyncedNote{});
  listener.push(notes);
}

}  // namespace kf
