#pragma once
// Which events are repeats: the same (object, type, reason, message) again within a window of
// its previous occurrence becomes one more count on the Event already written, as client-go's
// event correlator does, instead of another Event. Not thread-safe: one sender thread owns it.

#include <cstddef>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>

#include "federation/events/event_object.h"
#include "federation/runtime/clock.h"

namespace kf {

// The Event already written for an earlier occurrence.
struct WrittenEvent {
  std::string name;
  std::string namespace_name;
  int count = 0;
  std::string first_timestamp;
};

class EventDeduplicator {
 public:
  // Remembers at most `capacity` distinct events (least recently seen forgotten first).
  EventDeduplicator(Duration window, std::size_t capacity);

  // The Event to repeat for `record`, seen at `now`; nullopt when it is new or the previous
  // occurrence is older than the window.
  std::optional<WrittenEvent> previous(const EventRecord& record, SteadyTime now) const;
  // Notes that `written` now holds `record`'s latest occurrence, seen at `now`.
  void remember(const EventRecord& record, const WrittenEvent& written, SteadyTime now);
  void forget(const EventRecord& record);
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::string key;
    WrittenEvent written;
    SteadyTime seen;
  };
  static std::string keyOf(const EventRecord& record);

  Duration window_;
  std::size_t capacity_;
  std::list<Entry> entries_;  // most recently seen first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

}  // namespace kf
