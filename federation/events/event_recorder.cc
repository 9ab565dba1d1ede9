#include "federation/events/event_recorder.h"

namespace kf {
namespace {

std::string stringField(const Json& object, const char* field) {
  const auto value = object.find(field);
  return value != object.end() && value->is_string() ? value->get<std::string>() : std::string();
}

}  // namespace

ObjectReference referenceTo(const Json& object) {
  if (!object.is_object()) return {};
  return ObjectReference{.api_version = stringField(object, "apiVersion"),
                         .kind = stringField(object, "kind"),
                         .namespace_name = objectNamespace(object),
                         .name = objectName(object),
                         .uid = objectUid(object),
                         .resource_version = objectResourceVersion(object)};
}

}  // namespace kf
