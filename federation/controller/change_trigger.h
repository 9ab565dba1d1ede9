#pragma once
// The event-handler rule every KubeFed controller follows (spec §2.2): an add or a delete always
// triggers; an update triggers only when the new object differs from the old one, so resyncs and
// repeated notifications cost no reconcile. A delete seen only on re-list triggers with the last
// known state; a delete with no known state is ignored.

#include <functional>
#include <memory>

#include "federation/controller/reconcile_worker.h"
#include "federation/informer/shared_informer.h"

namespace kf {

class ChangeTrigger final : public EventHandler {
 public:
  using Trigger = std::function<void(const Json& object)>;

  explicit ChangeTrigger(Trigger trigger) : trigger_(std::move(trigger)) {}

  void onAdd(const ObjectPtr& object, bool is_initial_list) override;
  void onUpdate(const ObjectPtr& old_object, const ObjectPtr& new_object) override;
  void onDelete(const DeletedObject& deleted) override;

 private:
  Trigger trigger_;
};

// A ChangeTrigger that queues objectKey(object) ("namespace/name" or "name") in `worker`, which
// must outlive the handler's registration.
std::shared_ptr<EventHandler> enqueueOnChange(ReconcileWorker& worker);

}  // namespace kf
