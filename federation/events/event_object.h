#pragma once
// core/v1 Event objects as client-go's recorder writes them, as pure functions of their inputs.

#include <chrono>
#include <cstdint>
#include <string>

#include "federation/events/event_recorder.h"

namespace kf {

using WallClockTime = std::chrono::system_clock::time_point;

// One occurrence of an event, as recorded by the caller.
struct EventRecord {
  ObjectReference object;
  EventType type = EventType::kNormal;
  std::string reason;
  std::string message;
  WallClockTime at;
};

// Who reports: source.component / reportingComponent and source.host / reportingInstance.
struct EventSource {
  std::string component;  // "kubefedcluster-controller"
  std::string host;       // the node or pod host name
};

// "Normal" / "Warning".
const char* eventTypeName(EventType type);

// metav1.Time in JSON: RFC 3339 in UTC, whole seconds ("2024-01-02T03:04:05Z").
std::string formatEventTimestamp(WallClockTime time);

// "<object name>.<nanoseconds since the epoch in 16 lowercase hex digits>".
std::string eventName(const std::string& object_name, std::uint64_t unix_nanos);

// Events about cluster-scoped objects live in "default", as client-go puts them.
std::string eventNamespace(const ObjectReference& object);

// The Event to create for `record` (count, firstTimestamp = lastTimestamp = record.at).
Json makeEventObject(const EventRecord& record, const EventSource& source, const std::string& name,
                     int count, const std::string& first_timestamp);

// The patch that turns an existing Event into one more occurrence of it.
Json makeRepeatPatch(int count, const std::string& last_timestamp, const std::string& message);

}  // namespace kf
