#include "federation/controller/builder.h"

#include <utility>

#include "federation/controller/informer_source.h"

namespace kf {

ControllerBuilder::ControllerBuilder(std::string name, Clock& clock) : clock_(clock) {
  options_.name = std::move(name);
}

ControllerBuilder& ControllerBuilder::watches(SourcePtr source, Handler handler) {
  if (!source) return *this;
  watches_.push_back(PendingWatch{std::move(source), std::move(handler)});
  return *this;
}

ControllerBuilder& ControllerBuilder::watches(SharedInformer& informer, MapFunc map,
                                              WatchOptions options) {
  return watches(
      std::make_unique<InformerSource>(informer),
      enqueueMapped(std::move(map), options.delay).updatesWhen(std::move(options.update_filter)));
}

ControllerBuilder& ControllerBuilder::concurrency(int workers) {
  options_.concurrency = workers;
  return *this;
}

ControllerBuilder& ControllerBuilder::delays(Duration retry, Duration cluster_sync) {
  options_.retry_delay = retry;
  options_.cluster_sync_delay = cluster_sync;
  return *this;
}

ControllerBuilder& ControllerBuilder::backoff(Duration initial, Duration max) {
  options_.initial_backoff = initial;
  options_.max_backoff = max;
  return *this;
}

ControllerBuilder& ControllerBuilder::reconcileMetric(std::string label) {
  options_.reconcile_metric = std::move(label);
  return *this;
}

ControllerPtr ControllerBuilder::complete(ReconcilerPtr reconciler) {
  auto controller = std::make_unique<Controller>(options_, std::move(reconciler), clock_);
  for (PendingWatch& watch : watches_) {
    controller->watch(std::move(watch.source), std::move(watch.handler));
  }
  watches_.clear();
  return controller;
}

}  // namespace kf
