#pragma once
// An EventRecorder for unit tests: keeps every event in memory for the test to inspect.

#include <string>
#include <vector>

#include "federation/events/event_recorder.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

struct RecordedEvent {
  ObjectReference object;
  EventType type;
  std::string reason;
  std::string message;
};

class FakeEventRecorder final : public EventRecorder {
 public:
  void event(const ObjectReference& object, EventType type, const std::string& reason,
             const std::string& message) override {
    MutexLock lock(mu_);
    events_.push_back({object, type, reason, message});
  }

  std::vector<RecordedEvent> events() const {
    MutexLock lock(mu_);
    return events_;
  }
  // Reasons in recording order, e.g. {"CreateInCluster", "UpdateInCluster"}.
  std::vector<std::string> reasons() const {
    MutexLock lock(mu_);
    std::vector<std::string> out;
    for (const auto& e : events_) out.push_back(e.reason);
    return out;
  }

 private:
  mutable Mutex mu_;
  std::vector<RecordedEvent> events_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::test
