#pragma once
// A source over one shared informer (controller-runtime's source.Kind): the keys of its adds and
// deletes, and of the updates the handler's filter counts (KubeFed's rule: only real changes).
// The informer is borrowed, owned, or held through a lease of the InformerManager, so that the
// controllers interested in the same objects share one list/watch.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "federation/controller/source.h"
#include "federation/informer/informer_manager.h"
#include "federation/informer/shared_informer.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

class InformerSource final : public Source {
 public:
  // Over an informer someone else owns and starts; it must outlive the source.
  explicit InformerSource(SharedInformer& informer);
  // Over an informer of its own, started once the handler is registered and stopped with it.
  explicit InformerSource(std::unique_ptr<SharedInformer> informer);
  // Over a lease's informer; the lease is held until the source is destroyed.
  explicit InformerSource(InformerLease lease);
  // The informer for `key`, leased from `informers`; fails when it cannot be started.
  static Result<std::unique_ptr<InformerSource>> lease(InformerManager& informers,
                                                       const InformerKey& key);
  // stop().
  ~InformerSource() override;
  InformerSource(const InformerSource&) = delete;
  InformerSource& operator=(const InformerSource&) = delete;

  void start(EnqueueTarget& target, Handler handler) override KF_EXCLUDES(mu_);
  // Removes the handler (waiting for a call in progress) and stops an informer of its own.
  void stop() override KF_EXCLUDES(mu_);
  bool synced() const override { return informer_.hasSynced(); }

  SharedInformer& informer() const { return informer_; }
  const Store& store() const { return informer_.store(); }
  // Keys of every cached object.
  std::vector<std::string> keys() const { return informer_.store().listKeys(); }

 private:
  // Exactly one of the three holds the informer.
  InformerSource(SharedInformer* borrowed, std::unique_ptr<SharedInformer> owned,
                 InformerLease lease);

  std::unique_ptr<SharedInformer> owned_;
  InformerLease lease_;
  SharedInformer& informer_;
  Mutex mu_;
  std::optional<HandlerId> handler_ KF_GUARDED_BY(mu_);
  bool stopped_ KF_GUARDED_BY(mu_) = false;
};

}  // namespace kf
