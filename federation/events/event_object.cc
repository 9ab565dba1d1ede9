#include "federation/events/event_object.h"

#include <cinttypes>
#include <cstdio>
#include <ctime>

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

std::string formatEventTimestamp(WallClockTime time) {
  const auto seconds = std::chrono::floor<std::chrono::seconds>(time).time_since_epoch().count();
  const auto t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

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
