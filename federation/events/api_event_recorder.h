#pragma once
// The EventRecorder that writes core/v1 Events to the host cluster's API, as client-go's
// recorder does: one Event per new occurrence, named "<object>.<hex nanoseconds>" in the
// object's namespace ("default" for cluster-scoped objects); a repeat of the same
// (object, type, reason, message) within the aggregation window patches count and
// lastTimestamp of the Event already written.
//
// event() only enqueues: one sender thread per recorder does the writing, so callers never wait
// on the network. When the queue is full, events are dropped and counted (and logged at most
// once a minute). Writing failures are logged (at most once a minute) and the event is lost:
// events are best effort.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <thread>

#include "federation/client/rest_client.h"
#include "federation/events/event_deduplicator.h"
#include "federation/events/event_object.h"
#include "federation/events/event_recorder.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

struct EventRecorderOptions {
  std::size_t queue_capacity = 1000;
  // How long stop() keeps sending what is queued before it drops the rest.
  Duration drain_timeout = std::chrono::seconds(5);
  // A repeat within this time of the previous occurrence patches the existing Event.
  Duration aggregation_window = std::chrono::minutes(10);
  // Distinct events remembered for aggregation (client-go keeps 4096).
  std::size_t aggregation_capacity = 4096;
  // Per request: bounds how long a slow API server can hold up stop().
  std::chrono::milliseconds request_timeout{10'000};
};

struct EventRecorderStats {
  std::uint64_t created = 0;  // Events created
  std::uint64_t patched = 0;  // repeats written as count updates
  std::uint64_t failed = 0;   // events the API refused or never answered
  std::uint64_t dropped = 0;  // queue full, recorded after stop, or left when draining ended
};

class ApiEventRecorder final : public EventRecorder {
 public:
  // `host` must outlive the recorder. `component` is source.component (e.g.
  // "kubefedcluster-controller"); `host_name` is source.host.
  ApiEventRecorder(RestClient& host, std::string component, std::string host_name, Clock& clock,
                   EventRecorderOptions options = {});
  ~ApiEventRecorder() override;  // stop()
  ApiEventRecorder(const ApiEventRecorder&) = delete;
  ApiEventRecorder& operator=(const ApiEventRecorder&) = delete;

  // Thread-safe; returns at once; never throws.
  void event(const ObjectReference& object, EventType type, const std::string& reason,
             const std::string& message) override;

  // Stops accepting events; the sender keeps writing the queued ones for up to drain_timeout,
  // then drops the rest. Returns at once.
  void requestStop();
  // requestStop(), then waits for the sender thread to finish. Idempotent, thread-safe.
  void stop();

  EventRecorderStats stats() const;

 private:
  struct Pending {
    EventRecord record;
    SteadyTime seen;
    std::uint64_t unix_nanos;
  };

  void run();
  // Takes the next event to write; false when the sender should end.
  bool next(Pending* out) KF_EXCLUDES(mu_);
  void write(const Pending& pending);
  Status create(const Pending& pending, const std::string& name, int count,
                const std::string& first_timestamp);
  Status patch(const Pending& pending, const WrittenEvent& written, int count);
  void noteDroppedLocked(std::uint64_t how_many) KF_REQUIRES(mu_);
  void noteFailure(const Pending& pending, const ApiError& error);
  std::uint64_t uniqueNanos(WallClockTime at) KF_REQUIRES(mu_);

  RestClient& host_;
  const EventSource source_;
  Clock& clock_;
  const EventRecorderOptions options_;
  EventDeduplicator deduplicator_;  // sender thread only

  mutable Mutex mu_;
  std::condition_variable wake_;
  std::deque<Pending> queue_ KF_GUARDED_BY(mu_);
  bool stopping_ KF_GUARDED_BY(mu_) = false;
  SteadyTime drain_deadline_ KF_GUARDED_BY(mu_){};
  std::uint64_t last_nanos_ KF_GUARDED_BY(mu_) = 0;
  EventRecorderStats stats_ KF_GUARDED_BY(mu_);
  std::optional<SteadyTime> last_drop_log_ KF_GUARDED_BY(mu_);
  std::optional<SteadyTime> last_failure_log_ KF_GUARDED_BY(mu_);

  Mutex join_mu_;
  std::thread sender_;  // last: starts after everything above exists
};

}  // namespace kf
