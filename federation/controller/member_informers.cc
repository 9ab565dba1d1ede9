#include "federation/controller/member_informers.h"

#include <spdlog/spdlog.h>

#include <set>
#include <utility>
#include <vector>

#include "federation/controller/change_trigger.h"

namespace kf {

namespace {

constexpr char kManagedSelector[] = "kubefed.io/managed=true";

}  // namespace

MemberInformers::MemberInformers(MemberInformersOptions options, InformerManager& informers,
                                 ClusterRegistry& clusters, Clock& clock, TaskPool& pool)
    : options_(std::move(options)),
      informers_(informers),
      clusters_(clusters),
      clock_(clock),
      lane_(pool) {}

MemberInformers::~MemberInformers() {
  stop();
  std::map<std::string, Leased> leases;
  {
    MutexLock lock(mu_);
    leases.swap(leases_);
  }
  // Outside the lock: the last lease of an informer joins its threads.
  leases.clear();
}

void MemberInformers::start(EnqueueTarget& target, Handler handler) {
  {
    MutexLock lock(mu_);
    if (started_ || stopping_) {
      return;
    }
    started_ = true;
    update_filter_ = handler.update_filter;
    on_object_ = [&target, handler = std::move(handler)](const Json& object, Priority priority) {
      handler.deliver(&object, target, priority);
    };
  }
  const ListenerId id =
      clusters_.subscribe([this](const ClusterEvent& event) { post(Work{event}); });
  {
    MutexLock lock(mu_);
    listener_ = id;
  }
  // After subscribing, so a cluster added meanwhile is seen by the look or by its event; each
  // step reads the registry as it is then, so handling both is harmless.
  post(Work{});
}

void MemberInformers::stop() {
  std::optional<ListenerId> listener;
  {
    MutexLock lock(mu_);
    if (stopping_) {
      return;
    }
    stopping_ = true;
    listener = listener_;
  }
  if (listener) {
    clusters_.unsubscribe(*listener);
  }
  lane_.close();  // cancels the queued work, waits for the item in progress
  TimerHandlePtr retry_timer;
  std::vector<std::pair<SharedInformer*, HandlerId>> handlers;
  {
    MutexLock lock(mu_);
    retry_timer = std::move(retry_timer_);
    for (const auto& [name, leased] : leases_) {
      handlers.emplace_back(&leased.lease.informer(), leased.handler);
    }
  }
  // Outside the lock: cancelling waits for a retry callback in progress, which posts (takes
  // mu_); removing a handler waits for its call in progress. The leases stay, and no work runs
  // any more that could release them meanwhile.
  retry_timer.reset();
  for (const auto& [informer, handler] : handlers) {
    informer->removeEventHandler(handler);
  }
}

void MemberInformers::post(Work work) {
  if (stopping()) {
    return;
  }
  // After stop() closed the lane, the work is cancelled at once.
  lane_.submit([this, work = std::move(work)](bool cancelled) {
    if (!cancelled && !stopping()) {
      handle(work);
    }
  });
}

bool MemberInformers::stopping() const {
  MutexLock lock(mu_);
  return stopping_;
}

void MemberInformers::handle(const Work& work) {
  if (work.event) {
    const std::string& name = work.event->cluster.name;
    // A changed cluster may have a new endpoint or credentials: start over with a fresh lease.
    if (work.event->change != ClusterChange::kAdded) {
      release(name);
    }
    converge(name);
    return;
  }
  std::set<std::string> known;
  for (const ClusterSnapshot& cluster : clusters_.clusters()) {
    known.insert(cluster.name);
    converge(cluster.name);
  }
  std::vector<std::string> gone;
  {
    MutexLock lock(mu_);
    for (const auto& [name, leased] : leases_) {
      if (!known.contains(name)) {
        gone.push_back(name);
      }
    }
  }
  for (const std::string& name : gone) {
    release(name);
  }
}

void MemberInformers::converge(const std::string& cluster) {
  const std::optional<ClusterSnapshot> snapshot = clusters_.cluster(cluster);
  const bool wanted = snapshot && snapshot->ready;
  bool held = false;
  {
    MutexLock lock(mu_);
    held = leases_.contains(cluster);
  }
  if (!wanted) {
    if (held) {
      release(cluster);
    }
    return;
  }
  if (held) {
    return;
  }
  const InformerKey key{cluster, options_.target, options_.target_namespace, kManagedSelector, ""};
  Result<InformerLease> lease = informers_.acquire(key);
  if (!lease) {
    spdlog::warn("Could not start the informer {} for cluster {}: {}; retrying", describe(key),
                 cluster, lease.error().describe());
    scheduleRetry();
    return;
  }
  ChangeTrigger::Trigger on_object;
  UpdateFilter update_filter;
  {
    MutexLock lock(mu_);
    on_object = on_object_;
    update_filter = update_filter_;
  }
  const HandlerId handler = lease.value().addEventHandler(
      std::make_shared<ChangeTrigger>(std::move(on_object), std::move(update_filter)));
  MutexLock lock(mu_);
  leases_.emplace(cluster, Leased{std::move(lease.value()), handler});
}

void MemberInformers::release(const std::string& cluster) {
  InformerLease lease;
  {
    MutexLock lock(mu_);
    auto it = leases_.find(cluster);
    if (it == leases_.end()) {
      return;
    }
    lease = std::move(it->second.lease);
    leases_.erase(it);
  }
  lease.release();
}

void MemberInformers::scheduleRetry() {
  TimerHandlePtr replaced;  // destroyed after the lock: see stop()
  MutexLock lock(mu_);
  if (stopping_) {
    return;
  }
  replaced = std::exchange(retry_timer_,
                           clock_.runAfter(options_.acquire_retry_delay, [this] { post(Work{}); }));
}

bool MemberInformers::synced() const {
  if (!clusters_.synced()) return false;
  std::set<std::string> ready;
  for (const ClusterSnapshot& cluster : clusters_.clusters()) {
    if (cluster.ready) {
      ready.insert(cluster.name);
    }
  }
  MutexLock lock(mu_);
  if (leases_.size() != ready.size()) {
    return false;
  }
  for (const auto& [name, leased] : leases_) {
    if (!ready.contains(name) || !leased.lease->hasSynced()) {
      return false;
    }
  }
  return true;
}

Result<ObjectPtr> MemberInformers::cached(const std::string& cluster,
                                          const std::string& key) const {
  MutexLock lock(mu_);
  auto it = leases_.find(cluster);
  if (it == leases_.end()) {
    return makeError(Reason::kNotFound, "no informer for cluster \"" + cluster +
                                            "\": it is not ready or its cache is not started");
  }
  return it->second.lease->store().get(key);
}

}  // namespace kf
