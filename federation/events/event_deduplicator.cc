#include "federation/events/event_deduplicator.h"

namespace kf {

EventDeduplicator::EventDeduplicator(Duration window, std::size_t capacity)
    : window_(window), capacity_(capacity == 0 ? 1 : capacity) {}

std::string EventDeduplicator::keyOf(const EventRecord& record) {
  // A separator that cannot appear in names, kinds or reasons keeps the fields apart.
  const ObjectReference& o = record.object;
  std::string key;
  for (const std::string* part : {&o.api_version, &o.kind, &o.namespace_name, &o.name, &o.uid,
                                  &record.reason, &record.message}) {
    key += *part;
    key += '\0';
  }
  key += eventTypeName(record.type);
  return key;
}

std::optional<WrittenEvent> EventDeduplicator::previous(const EventRecord& record,
                                                        SteadyTime now) const {
  auto found = index_.find(keyOf(record));
  if (found == index_.end() || now - found->second->seen > window_) return std::nullopt;
  return found->second->written;
}

void EventDeduplicator::remember(const EventRecord& record, const WrittenEvent& written,
                                 SteadyTime now) {
  std::string key = keyOf(record);
  if (auto found = index_.find(key); found != index_.end()) {
    entries_.erase(found->second);
    index_.erase(found);
  }
  entries_.push_front(Entry{key, written, now});
  index_.emplace(std::move(key), entries_.begin());
  while (entries_.size() > capacity_) {
    index_.erase(entries_.back().key);
    entries_.pop_back();
  }
}

void EventDeduplicator::forget(const EventRecord& record) {
  auto found = index_.find(keyOf(record));
  if (found == index_.end()) return;
  entries_.erase(found->second);
  index_.erase(found);
}

}  // namespace kf
