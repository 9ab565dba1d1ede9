#include "federation/controller/handler.h"

#include <utility>

namespace kf {

std::vector<std::string> keyOfObject(const Json& object) { return {objectKey(object)}; }

MapFunc inNamespace(std::string ns) {
  return [ns = std::move(ns)](const Json& object) -> std::vector<std::string> {
    if (objectNamespace(object) != ns) return {};
    return {objectKey(object)};
  };
}

Handler Handler::updatesWhen(UpdateFilter filter) && {
  update_filter = std::move(filter);
  return std::move(*this);
}

Handler Handler::delayedBy(std::function<Duration(const std::string& key)> delay_for) && {
  delay_of = std::move(delay_for);
  return std::move(*this);
}

void Handler::deliver(const Json* object, EnqueueTarget& target, Priority priority) const {
  for (const std::string& key : keys(object)) {
    const Duration key_delay = delay_of ? delay_of(key) : delay;
    if (priority == Priority::kBacklog) {
      target.enqueueBacklogAfter(key, key_delay);
    } else {
      target.enqueueAfter(key, key_delay);
    }
  }
}

Handler enqueueObject(Duration delay) { return enqueueMapped(keyOfObject, delay); }

Handler enqueueMapped(MapFunc map, Duration delay) {
  return Handler{.keys = [map = std::move(map)](const Json* object) -> std::vector<std::string> {
                   if (object == nullptr) return {};
                   return map(*object);
                 },
                 .delay = delay};
}

Handler enqueueAll(std::function<std::vector<std::string>()> keys, Duration delay) {
  return Handler{.keys = [keys = std::move(keys)](const Json*) { return keys(); }, .delay = delay};
}

}  // namespace kf
