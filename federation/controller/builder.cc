#include "federation/controller/builder.h"

#include <utility>

namespace kf {

MapFunc inNamespace(std::string ns) {
  return [ns = std::move(ns)](const Json& object) -> std::vector<std::string> {
    if (objectNamespace(object) != ns) return {};
    return {objectKey(object)};
  };
}

ControllerBuilder::ControllerBuilder(std::string name, Clock& clock) : clock_(clock) {
  options_.name = std::move(name);
}

ControllerBuilder& ControllerBuilder::watches(SharedInformer& informer, MapFunc map,
                                              WatchOptions options) {
  watches_.push_back(PendingWatch{&informer, std::move(map), std::move(options)});
  return *this;
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
    controller->watch(*watch.informer, std::move(watch.map), std::move(watch.options));
  }
  watches_.clear();
  return controller;
}

}  // namespace kf
