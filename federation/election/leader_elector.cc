#include "federation/election/leader_elector.h"

#include <spdlog/spdlog.h>

#include <memory>
#include <thread>
#include <utility>

#include "federation/runtime/interruptible_sleep.h"

namespace kf {
namespace {

std::int64_t wholeSecondsAtLeastOne(Duration duration) {
  const auto seconds = std::chrono::ceil<std::chrono::seconds>(duration).count();
  return seconds < 1 ? 1 : seconds;
}

}  // namespace

std::string validateLeaderElectionConfig(const LeaderElectionConfig& config) {
  if (config.lock == nullptr) return "a lock is required";
  if (config.identity.empty()) return "identity is required";
  if (config.lease_duration <= Duration::zero() || config.renew_deadline <= Duration::zero() ||
      config.retry_period <= Duration::zero()) {
    return "leaseDuration, renewDeadline and retryPeriod must be greater than zero";
  }
  if (config.lease_duration <= config.renew_deadline) {
    return "leaseDuration must be greater than renewDeadline";
  }
  // Renewal attempts are spaced by retryPeriod; the deadline must leave room for a retry.
  if (config.renew_deadline * 10 <= config.retry_period * 12) {
    return "renewDeadline must be greater than retryPeriod*JitterFactor(1.2)";
  }
  return "";
}

LeaseAction decideLeaseAction(const std::optional<LeaseObservation>& observed, SteadyTime now,
                              const std::string& identity, Duration default_duration) {
  if (!observed) return LeaseAction::kCreate;
  const LeaseRecord& record = observed->record;
  if (record.holder_identity == identity) return LeaseAction::kRenew;
  if (record.holder_identity.empty()) return LeaseAction::kAcquire;  // released
  const Duration duration = record.lease_duration_seconds > 0
                                ? Duration(std::chrono::seconds(record.lease_duration_seconds))
                                : default_duration;
  // Measured from when *we* saw the record change, so the holder's clock never matters.
  return now >= observed->observed_at + duration ? LeaseAction::kAcquire : LeaseAction::kWait;
}

LeaseRecord nextLeaseRecord(LeaseAction action, const LeaseRecord& current,
                            const std::string& identity, Duration lease_duration, WallTime now) {
  LeaseRecord next = action == LeaseAction::kCreate ? LeaseRecord{} : current;
  next.holder_identity = identity;
  next.lease_duration_seconds = wholeSecondsAtLeastOne(lease_duration);
  next.renew_time = now;
  if (action == LeaseAction::kAcquire) {
    next.acquire_time = now;
    ++next.lease_transitions;  // a new term under a different holder
  } else if (action == LeaseAction::kCreate || !next.acquire_time) {
    next.acquire_time = now;
  }
  return next;
}

LeaderElector::LeaderElector(LeaderElectionConfig config, Clock& clock)
    : config_(std::move(config)), clock_(clock) {}

bool LeaderElector::isLeader() const {
  MutexLock lock(mu_);
  return leading_;
}

std::string LeaderElector::observedLeader() const {
  MutexLock lock(mu_);
  return observed_ ? observed_->record.holder_identity : "";
}

ElectionResult LeaderElector::run(std::stop_token stop) {
  if (!acquire(stop)) return ElectionResult::kStopped;
  {
    MutexLock lock(mu_);
    leading_ = true;
  }
  spdlog::info("promoted as leader");
  recordEvent("became leader");
  std::jthread leader_work;
  if (config_.callbacks.on_started_leading) {
    leader_work = std::jthread(config_.callbacks.on_started_leading);
  }
  const ElectionResult result = renewUntilLostOrStopped(stop);
  // Controllers stop before anyone else may lead: join them before giving the lease away.
  if (leader_work.joinable()) {
    leader_work.request_stop();
    leader_work.join();
  }
  if (result == ElectionResult::kStopped && config_.release_on_cancel) release();
  {
    MutexLock lock(mu_);
    leading_ = false;
  }
  if (result == ElectionResult::kLost) spdlog::error("leader election lost");
  recordEvent("stopped leading");
  if (config_.callbacks.on_stopped_leading) config_.callbacks.on_stopped_leading();
  return result;
}

bool LeaderElector::acquire(const std::stop_token& stop) {
  const std::string lease = config_.lock->describe();
  spdlog::info("attempting to acquire leader lease {}...", lease);
  while (!stop.stop_requested()) {
    if (tryAcquireOrRenew()) {
      spdlog::info("successfully acquired lease {}", lease);
      return true;
    }
    if (!sleepUnlessStopped(clock_, stop, config_.retry_period)) break;
  }
  return false;
}

ElectionResult LeaderElector::renewUntilLostOrStopped(const std::stop_token& stop) {
  const std::string lease = config_.lock->describe();
  SteadyTime last_renewal = clock_.now();
  while (sleepUnlessStopped(clock_, stop, config_.retry_period)) {
    if (tryAcquireOrRenew()) {
      last_renewal = clock_.now();
      continue;
    }
    const std::string holder = observedLeader();
    if (!holder.empty() && holder != config_.identity) {
      spdlog::error("failed to renew lease {}: the lease is held by {}", lease, holder);
      return ElectionResult::kLost;
    }
    // Give up before the lease can expire in other candidates' eyes, so two never lead at once.
    if (clock_.now() - last_renewal >= config_.renew_deadline) {
      spdlog::error("failed to renew lease {}: timed out waiting for the condition", lease);
      return ElectionResult::kLost;
    }
  }
  return ElectionResult::kStopped;
}

bool LeaderElector::tryAcquireOrRenew() {
  auto current = config_.lock->get();
  if (!current) {
    if (!isNotFound(current.error())) {
      spdlog::error("error retrieving resource lock {}: {}", config_.lock->describe(),
                    current.error().describe());
      return false;
    }
    {
      MutexLock lock(mu_);
      observed_.reset();
    }
    return writeLease(LeaseAction::kCreate, VersionedLease{});
  }
  observe(current.value());
  reportNewLeader();
  LeaseAction action;
  {
    MutexLock lock(mu_);
    action = decideLeaseAction(observed_, clock_.now(), config_.identity, config_.lease_duration);
  }
  if (action == LeaseAction::kWait) return false;
  return writeLease(action, current.value());
}

bool LeaderElector::writeLease(LeaseAction action, const VersionedLease& current) {
  const LeaseRecord next = nextLeaseRecord(action, current.record, config_.identity,
                                           config_.lease_duration, clock_.wallNow());
  auto written = action == LeaseAction::kCreate
                     ? config_.lock->create(next)
                     : config_.lock->update(next, current.resource_version);
  if (!written) {
    const ApiError& error = written.error();
    if (isConflict(error) || isAlreadyExists(error)) {
      // Another candidate wrote first; the next round reads what it wrote.
      spdlog::debug("lease {} changed concurrently: {}", config_.lock->describe(),
                    error.describe());
    } else {
      spdlog::error("failed to write lease {}: {}", config_.lock->describe(), error.describe());
    }
    return false;
  }
  observe(written.value());
  reportNewLeader();
  return true;
}

void LeaderElector::observe(const VersionedLease& lease) {
  MutexLock lock(mu_);
  observed_version_ = lease.resource_version;
  // Expiry counts from the last *change*: re-reading an unchanged record must not extend it.
  if (!observed_ || observed_->record != lease.record || observed_->raw != lease.raw) {
    observed_ = LeaseObservation{lease.record, clock_.now(), lease.raw};
  }
}

void LeaderElector::reportNewLeader() {
  std::string leader;
  {
    MutexLock lock(mu_);
    if (!observed_) return;
    leader = observed_->record.holder_identity;
    if (leader.empty() || leader == reported_leader_) return;
    reported_leader_ = leader;
  }
  spdlog::info("new leader elected: {}", leader);
  if (config_.callbacks.on_new_leader) config_.callbacks.on_new_leader(leader);
}

void LeaderElector::release() {
  LeaseRecord record;
  std::string version;
  {
    MutexLock lock(mu_);
    if (!observed_ || observed_->record.holder_identity != config_.identity) return;
    record = observed_->record;
    version = observed_version_;
  }
  record.holder_identity.clear();
  record.lease_duration_seconds = 1;
  record.renew_time = clock_.wallNow();
  auto written = config_.lock->update(record, version);
  if (!written) {
    spdlog::error("failed to release lease {}: {}", config_.lock->describe(),
                  written.error().describe());
    return;
  }
  observe(written.value());
  spdlog::info("released lease {}", config_.lock->describe());
}

void LeaderElector::recordEvent(const std::string& what) const {
  if (config_.recorder == nullptr) return;
  for (const ObjectReference& target : config_.lock->eventTargets()) {
    config_.recorder->event(target, EventType::kNormal, "LeaderElection",
                            config_.identity + " " + what);
  }
}

}  // namespace kf
