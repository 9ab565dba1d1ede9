#include "federation/controller/change_trigger.h"

namespace kf {

void ChangeTrigger::onAdd(const ObjectPtr& object, bool /*is_initial_list*/) {
  if (object) trigger_(*object);
}

bool objectChanged(const Json& old_object, const Json& new_object) {
  return old_object != new_object;
}

void ChangeTrigger::onUpdate(const ObjectPtr& old_object, const ObjectPtr& new_object) {
  if (!new_object || old_object == new_object) return;
  if (old_object && !update_filter_(*old_object, *new_object)) return;
  trigger_(*new_object);
}

void ChangeTrigger::onDelete(const DeletedObject& deleted) {
  if (deleted.last_known) trigger_(*deleted.last_known);
}

}  // namespace kf
