#include "federation/controller/informer_source.h"

#include <utility>

namespace kf {

// The informer is taken from the parameters only once they are members: the order in which a
// call's arguments are evaluated is unspecified, so `*owned` beside `std::move(owned)` could
// read a moved-from pointer.
InformerSource::InformerSource(SharedInformer* borrowed, std::unique_ptr<SharedInformer> owned,
                               InformerLease lease)
    : owned_(std::move(owned)),
      lease_(std::move(lease)),
      informer_(borrowed != nullptr ? *borrowed
                : owned_            ? *owned_
                                    : lease_.informer()) {}

InformerSource::InformerSource(SharedInformer& informer)
    : InformerSource(&informer, nullptr, InformerLease()) {}

InformerSource::InformerSource(std::unique_ptr<SharedInformer> informer)
    : InformerSource(nullptr, std::move(informer), InformerLease()) {}

InformerSource::InformerSource(InformerLease lease)
    : InformerSource(nullptr, nullptr, std::move(lease)) {}

Result<std::unique_ptr<InformerSource>> InformerSource::lease(InformerManager& informers,
                                                              const InformerKey& key) {
  KF_TRY(lease, informers.acquire(key));
  return std::make_unique<InformerSource>(std::move(lease));
}

InformerSource::~InformerSource() { stop(); }

void InformerSource::start(EnqueueTarget& target, Handler handler) {
  {
    MutexLock lock(mu_);
    if (stopped_ || handler_) return;
    UpdateFilter filter = handler.update_filter;
    handler_ = informer_.addEventHandler(std::make_shared<ChangeTrigger>(
        [&target, handler = std::move(handler)](const Json& object, Priority priority) {
          handler.deliver(&object, target, priority);
        },
        std::move(filter)));
  }
  // After the handler: the first list reaches it as adds, not as a replay of a synced cache.
  if (owned_) owned_->start();
}

void InformerSource::stop() {
  std::optional<HandlerId> handler;
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    handler = std::exchange(handler_, std::nullopt);
  }
  // Outside the lock: removing waits for a handler call in progress.
  if (handler) informer_.removeEventHandler(*handler);
  if (owned_) owned_->stop();
}

}  // namespace kf
