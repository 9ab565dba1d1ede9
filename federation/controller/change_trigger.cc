#include "federation/controller/change_trigger.h"

namespace kf {

void ChangeTrigger::onAdd(const ObjectPtr& object, bool is_initial_list) {
  if (object) trigger_(*object, is_initial_list ? Priority::kBacklog : Priority::kNormal);
}

namespace {

// Whether two objects' metadata differ in anything but managedFields.
bool metadataChanged(const Json& old_metadata, const Json& new_metadata) {
  if (!old_metadata.is_object() || !new_metadata.is_object()) return old_metadata != new_metadata;
  const auto counted = [](const Json& metadata) {
    return metadata.size() - (metadata.contains("managedFields") ? 1 : 0);
  };
  if (counted(old_metadata) != counted(new_metadata)) return true;
  for (const auto& [field, value] : new_metadata.items()) {
    if (field == "managedFields") continue;
    const auto old_value = old_metadata.find(field);
    if (old_value == old_metadata.end() || *old_value != value) return true;
  }
  return false;
}

}  // namespace

bool objectChanged(const Json& old_object, const Json& new_object) {
  if (!old_object.is_object() || !new_object.is_object() ||
      old_object.size() != new_object.size()) {
    return old_object != new_object;
  }
  for (const auto& [key, value] : new_object.items()) {
    const auto old_value = old_object.find(key);
    if (old_value == old_object.end()) return true;
    if (key == "metadata" ? metadataChanged(*old_value, value) : *old_value != value) return true;
  }
  return false;
}

void ChangeTrigger::onUpdate(const ObjectPtr& old_object, const ObjectPtr& new_object) {
  if (!new_object || old_object == new_object) return;
  if (old_object && !update_filter_(*old_object, *new_object)) return;
  trigger_(*new_object, Priority::kNormal);
}

void ChangeTrigger::onDelete(const DeletedObject& deleted) {
  if (deleted.last_known) trigger_(*deleted.last_known, Priority::kNormal);
}

}  // namespace kf
