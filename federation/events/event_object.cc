#include "federation/events/event_object.h"

#include <cinttypes>
#include <cstdio>
#include <ctime>

#include "apis/meta/time.h"

namespace kf {
namespace {

// involvedObject, with Go's omitempty: empty fields are left out.
Json referenceJson(const ObjectReference& object) {
  Json out = Json::object();
  auto put = [&out](const char* field, const std::string& value) {
    if (!value.empty()) out[field] = value;
  };
  put("kind", object.kind);
  put("namespace", object.namespace_name);
  put("name", object.name);
  put("uid", object.uid);
  put("apiVersion", object.api_version);
  put("resourceVersion", object.resource_version);
  return out;
}

}  // namespace

const char* eventTypeName(EventType type) {
  return type == EventType::kWarning ? "Warning" : "Normal";
}

std::string formatEventTimestamp(WallClockTime time) { return meta::formatTime(time); }

std::string eventName(const std::string& object_name, std::uint64_t unix_nanos) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, unix_nanos);
  return object_name + "." + hex;
}

std::string eventNamespace(const ObjectReference& object) {
  return object.namespace_name.empty() ? "default" : object.namespace_name;
}

Json makeEventObject(const EventRecord& record, const EventSource& source, const std::string& name,
                     int count, const std::string& first_timestamp) {
  const std::string now = formatEventTimestamp(record.at);
  Json event{
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata", {{"name", name}, {"namespace", eventNamespace(record.object)}}},
      {"involvedObject", referenceJson(record.object)},
      {"reason", record.reason},
      {"message", record.message},
      {"source", {{"component", source.component}}},
      {"firstTimestamp", first_timestamp.empty() ? now : first_timestamp},
      {"lastTimestamp", now},
      {"count", count},
      {"type", eventTypeName(record.type)},
      {"reportingComponent", source.component},
  };
  if (!source.host.empty()) {  // omitted when empty, as Go's omitempty does
    event["source"]["host"] = source.host;
    event["reportingInstance"] = source.host;
  }
  return event;
}

Json makeRepeatPatch(int count, const std::string& last_timestamp, const std::string& message) {
  return Json{{"count", count}, {"lastTimestamp", last_timestamp}, {"message", message}};
}

}  // namespace kf
