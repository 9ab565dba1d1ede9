#pragma once
// The event-handler rule every KubeFed controller follows (spec §2.2): an add or a delete always
// triggers; an update triggers only when the new object differs from the old one (or when a
// controller's own filter says so), so resyncs and repeated notifications cost no reconcile. A
// delete seen only on re-list triggers with the last known state; a delete with no known state is
// ignored. The adds of an informer's initial list trigger as a backlog (priority.h), every
// other event as normal.

#include <functional>
#include <memory>

#include "federation/informer/shared_informer.h"
#include "federation/workqueue/priority.h"

namespace kf {

// Whether an update of a watched object triggers (adds and deletes always do).
using UpdateFilter = std::function<bool(const Json& old_object, const Json& new_object)>;
// KubeFed's rule: only when the object changed, so resyncs and repeats cost no reconcile.
// metadata.managedFields is not compared: the informer caches do not keep it (compact_object.h),
// so an old object from a cache lacks what the same object from a list or watch carries.
bool objectChanged(const Json& old_object, const Json& new_object);

class ChangeTrigger final : public EventHandler {
 public:
  using Trigger = std::function<void(const Json& object, Priority priority)>;

  explicit ChangeTrigger(Trigger trigger, UpdateFilter update_filter = objectChanged)
      : trigger_(std::move(trigger)), update_filter_(std::move(update_filter)) {}

  void onAdd(const ObjectPtr& object, bool is_initial_list) override;
  void onUpdate(const ObjectPtr& old_object, const ObjectPtr& new_object) override;
  void onDelete(const DeletedObject& deleted) override;

 private:
  Trigger trigger_;
  UpdateFilter update_filter_;
};

}  // namespace kf
