#include "federation/events/api_event_recorder.h"

#include <spdlog/spdlog.h>

#include "federation/runtime/thread_name.h"

namespace kf {
namespace {

// Drops and write failures are logged at most this often: a storm must not flood the log.
constexpr auto kLogInterval = std::chrono::minutes(1);

bool dueForLog(std::optional<SteadyTime>& last, SteadyTime now) {
  if (last && now - *last < kLogInterval) return false;
  last = now;
  return true;
}

std::string eventsPath(const std::string& ns) { return "/api/v1/namespaces/" + ns + "/events"; }

}  // namespace

ApiEventRecorder::ApiEventRecorder(RestClient& host, std::string component, std::string host_name,
                                   Clock& clock, EventRecorderOptions options)
    : host_(host),
      source_{std::move(component), std::move(host_name)},
      clock_(clock),
      options_(options),
      deduplicator_(options.aggregation_window, options.aggregation_capacity),
      sender_([this] { run(); }) {}

ApiEventRecorder::~ApiEventRecorder() { stop(); }

void ApiEventRecorder::event(const ObjectReference& object, EventType type,
                             const std::string& reason, const std::string& message) {
  try {
    const SteadyTime seen = clock_.now();
    const WallClockTime at = clock_.wallNow();
    Pending pending{EventRecord{object, type, reason, message, at}, seen, 0};
    {
      MutexLock lock(mu_);
      if (stopping_ || queue_.size() >= options_.queue_capacity) {
        noteDroppedLocked(1);
        return;
      }
      pending.unix_nanos = uniqueNanos(at);
      queue_.push_back(std::move(pending));
    }
    wake_.notify_one();
  } catch (...) {
    // Out of memory while copying strings: the event is lost, the caller must not notice.
  }
}

std::uint64_t ApiEventRecorder::uniqueNanos(WallClockTime at) {
  const auto nanos = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count());
  // Two events in the same nanosecond (or a clock stepping back) must not share a name.
  last_nanos_ = std::max(nanos, last_nanos_ + 1);
  return last_nanos_;
}

void ApiEventRecorder::noteDroppedLocked(std::uint64_t how_many) {
  if (how_many == 0) return;
  stats_.dropped += how_many;
  if (dueForLog(last_drop_log_, clock_.now())) {
    spdlog::warn("Dropping events of {}: {} dropped so far (queue of {} full, or stopping)",
                 source_.component, stats_.dropped, options_.queue_capacity);
  }
}

void ApiEventRecorder::requestStop() {
  {
    MutexLock lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    drain_deadline_ = clock_.now() + options_.drain_timeout;
  }
  wake_.notify_all();
}

void ApiEventRecorder::stop() {
  requestStop();
  MutexLock lock(join_mu_);
  if (sender_.joinable()) sender_.join();
}

EventRecorderStats ApiEventRecorder::stats() const {
  MutexLock lock(mu_);
  return stats_;
}

void ApiEventRecorder::run() {
  nameThisThread("events");
  Pending pending;
  while (next(&pending)) write(pending);
}

bool ApiEventRecorder::next(Pending* out) {
  MutexLock lock(mu_);
  while (queue_.empty() && !stopping_) wake_.wait(lock.native());
  if (stopping_ && (queue_.empty() || clock_.now() >= drain_deadline_)) {
    noteDroppedLocked(queue_.size());
    queue_.clear();
    return false;
  }
  *out = std::move(queue_.front());
  queue_.pop_front();
  return true;
}

void ApiEventRecorder::write(const Pending& pending) {
  if (auto written = deduplicator_.previous(pending.record, pending.seen)) {
    const int count = written->count + 1;
    const Status patched = patch(pending, *written, count);
    if (patched) {
      written->count = count;
      deduplicator_.remember(pending.record, *written, pending.seen);
      MutexLock lock(mu_);
      ++stats_.patched;
      return;
    }
    if (!isNotFound(patched.error())) {
      noteFailure(pending, patched.error());
      return;
    }
    // The Event is gone (expired or deleted): write this occurrence as a new one.
    deduplicator_.forget(pending.record);
  }
  const WrittenEvent written{eventName(pending.record.object.name, pending.unix_nanos),
                             eventNamespace(pending.record.object), 1,
                             formatEventTimestamp(pending.record.at)};
  const Status created = create(pending, written.name, written.count, written.first_timestamp);
  if (!created) {
    noteFailure(pending, created.error());
    return;
  }
  deduplicator_.remember(pending.record, written, pending.seen);
  MutexLock lock(mu_);
  ++stats_.created;
}

Status ApiEventRecorder::create(const Pending& pending, const std::string& name, int count,
                                const std::string& first_timestamp) {
  const Json event = makeEventObject(pending.record, source_, name, count, first_timestamp);
  RestRequest request{.method = "POST",
                      .path = eventsPath(eventNamespace(pending.record.object)),
                      .body = event.dump(),
                      .idempotent = false,
                      .timeout = options_.request_timeout};
  KF_TRYV(host_.send(request));
  return boost::outcome_v2::success();
}

Status ApiEventRecorder::patch(const Pending& pending, const WrittenEvent& written, int count) {
  const Json body =
      makeRepeatPatch(count, formatEventTimestamp(pending.record.at), pending.record.message);
  RestRequest request{.method = "PATCH",
                      .path = eventsPath(written.namespace_name) + "/" + written.name,
                      .body = body.dump(),
                      .content_type = "application/strategic-merge-patch+json",
                      .idempotent = false,
                      .timeout = options_.request_timeout};
  KF_TRYV(host_.send(request));
  return boost::outcome_v2::success();
}

void ApiEventRecorder::noteFailure(const Pending& pending, const ApiError& error) {
  MutexLock lock(mu_);
  ++stats_.failed;
  if (dueForLog(last_failure_log_, clock_.now())) {
    spdlog::warn("Writing event {} about {} {}/{} failed ({} failures so far): {}",
                 pending.record.reason, pending.record.object.kind,
                 pending.record.object.namespace_name, pending.record.object.name, stats_.failed,
                 error.describe());
  }
}

}  // namespace kf
