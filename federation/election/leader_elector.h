#pragma once
// Leader election on a Lease: run() blocks while it campaigns, leads and renews, and returns once
// leadership ends (lost, or the caller stopped it).
//
// Expiry is judged only by this process's own clock: a lease counts as expired when it has not
// changed for leaseDurationSeconds since *we* last saw it change. Remote timestamps (renewTime)
// are written for people and tools, never compared, so clock skew between hosts cannot make two
// candidates lead at once.

#include <functional>
#include <optional>
#include <stop_token>
#include <string>

#include "federation/election/lease_lock.h"
#include "federation/events/event_recorder.h"
#include "federation/runtime/clock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

struct LeaderCallbacks {
  // Runs on its own thread once this process leads. It may block; it must return soon after its
  // token is stopped, which happens when leadership ends.
  std::function<void(std::stop_token)> on_started_leading;
  // After leadership ended (lost or released) and on_started_leading has returned.
  std::function<void()> on_stopped_leading;
  // Whenever the observed holder changes, including to this process.
  std::function<void(const std::string& identity)> on_new_leader;
};

struct LeaderElectionConfig {
  ResourceLock* lock = nullptr;  // not owned
  std::string identity;
  Duration lease_duration = std::chrono::seconds(15);
  Duration renew_deadline = std::chrono::seconds(10);
  Duration retry_period = std::chrono::seconds(5);
  // On stop (not on loss) clear the holder so another candidate takes over at once.
  bool release_on_cancel = false;
  LeaderCallbacks callbacks;
  // Not owned; when set, client-go's LeaderElection events on the lock's objects:
  // "<identity> became leader" and "<identity> stopped leading".
  EventRecorder* recorder = nullptr;
};

// "" when usable, else why not (the same rules KubeFedConfig validation applies).
std::string validateLeaderElectionConfig(const LeaderElectionConfig& config);

// What a candidate should do with the lease as it last observed it.
enum class LeaseAction {
  kCreate,   // no lease exists
  kAcquire,  // free or expired: take it over (a new term)
  kRenew,    // we hold it: extend it
  kWait,     // someone else holds an unexpired lease
};

struct LeaseObservation {
  LeaseRecord record;
  SteadyTime observed_at;  // our clock when the record (or its stored form) last changed
  std::string raw;         // the stored form, as VersionedLease::raw
};

// `default_duration` applies when the record does not say how long it lasts.
LeaseAction decideLeaseAction(const std::optional<LeaseObservation>& observed, SteadyTime now,
                              const std::string& identity, Duration default_duration);

// The record to write for `action` (kCreate, kAcquire or kRenew).
LeaseRecord nextLeaseRecord(LeaseAction action, const LeaseRecord& current,
                            const std::string& identity, Duration lease_duration, WallTime now);

enum class ElectionResult {
  kStopped,  // the caller's token was stopped
  kLost,     // leadership was lost: the process should exit non-zero
};

class LeaderElector {
 public:
  LeaderElector(LeaderElectionConfig config, Clock& clock);

  ElectionResult run(std::stop_token stop) KF_EXCLUDES(mu_);

  bool isLeader() const KF_EXCLUDES(mu_);
  // The holder this elector last observed ("" if none).
  std::string observedLeader() const KF_EXCLUDES(mu_);

 private:
  // false when stopped before leadership was won.
  bool acquire(const std::stop_token& stop);
  // Returns once leadership is lost (kLost) or the caller stops (kStopped).
  ElectionResult renewUntilLostOrStopped(const std::stop_token& stop);
  // One read-decide-write round; true when we hold the lease afterwards.
  bool tryAcquireOrRenew() KF_EXCLUDES(mu_);
  bool writeLease(LeaseAction action, const VersionedLease& current) KF_EXCLUDES(mu_);
  void observe(const VersionedLease& lease) KF_EXCLUDES(mu_);
  void release() KF_EXCLUDES(mu_);
  void reportNewLeader() KF_EXCLUDES(mu_);
  void recordEvent(const std::string& what) const;

  const LeaderElectionConfig config_;
  Clock& clock_;

  mutable Mutex mu_;
  std::optional<LeaseObservation> observed_ KF_GUARDED_BY(mu_);
  std::string observed_version_ KF_GUARDED_BY(mu_);
  std::string reported_leader_ KF_GUARDED_BY(mu_);
  bool leading_ KF_GUARDED_BY(mu_) = false;
};

}  // namespace kf
