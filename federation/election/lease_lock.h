#pragma once
// The leader-election lock interface, and its coordination.k8s.io/v1 Lease kind. Writes carry the
// resourceVersion that was read, so two candidates racing for the same lease cannot both win: the
// loser gets a Conflict. (ConfigMap and Endpoints locks: annotation_lock.h; the migration locks:
// multi_lock.h; all by name: lock_types.h.)

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "federation/client/resource_client.h"
#include "federation/events/event_recorder.h"

namespace kf {

using WallTime = std::chrono::system_clock::time_point;

// The spec of a Lease, as the Kubernetes API documents it; also client-go's LeaderElectionRecord,
// which ConfigMap and Endpoints locks keep in an annotation.
struct LeaseRecord {
  std::string holder_identity;  // "" when nobody holds (or the holder released) the lease
  std::int64_t lease_duration_seconds = 0;
  std::optional<WallTime> acquire_time;
  std::optional<WallTime> renew_time;
  std::int64_t lease_transitions = 0;

  bool operator==(const LeaseRecord&) const = default;
};

// A record as read from (or written to) the server, with the version a later write must match.
struct VersionedLease {
  LeaseRecord record;
  std::string resource_version;
  // The record as stored (client-go's raw record): a change here is a change of the lock even
  // where `record` does not show it (a MultiLock's secondary).
  std::string raw;
};

class ResourceLock {
 public:
  virtual ~ResourceLock() = default;
  // NotFound when the lease does not exist yet.
  virtual Result<VersionedLease> get() = 0;
  // AlreadyExists when another candidate created it first.
  virtual Result<VersionedLease> create(const LeaseRecord& record) = 0;
  // Conflict when the lease changed since `resource_version` was read.
  virtual Result<VersionedLease> update(const LeaseRecord& record,
                                        const std::string& resource_version) = 0;
  // "namespace/name", for log lines.
  virtual std::string describe() const = 0;
  // The objects LeaderElection events are about (as last read or written).
  virtual std::vector<ObjectReference> eventTargets() const { return {}; }
};

// Not thread-safe: it belongs to one elector, which calls it from one thread.
class LeaseLock final : public ResourceLock {
 public:
  LeaseLock(RestClient& client, std::string ns, std::string name);

  Result<VersionedLease> get() override;
  Result<VersionedLease> create(const LeaseRecord& record) override;
  // Writes the spec into the Lease as last read or written, keeping its metadata.
  Result<VersionedLease> update(const LeaseRecord& record,
                                const std::string& resource_version) override;
  std::string describe() const override { return namespace_ + "/" + name_; }
  std::vector<ObjectReference> eventTargets() const override;

 private:
  Json toObject(const LeaseRecord& record, const std::string& resource_version) const;
  Result<VersionedLease> remember(Result<Json> lease);

  ResourceClient leases_;
  std::string namespace_;
  std::string name_;
  Json last_;  // the Lease as last read or written; null before
};

// coordination.k8s.io/v1 leases.
extern const GroupVersionResource kLeaseResource;

// MicroTime: RFC 3339 in UTC with exactly six fractional digits, "2006-01-02T15:04:05.000000Z".
std::string formatMicroTime(WallTime time);
// Accepts any RFC 3339 UTC time ("Z"), with or without fractional seconds.
std::optional<WallTime> parseMicroTime(const std::string& text);

// The Lease's spec <-> LeaseRecord.
Json leaseSpecToJson(const LeaseRecord& record);
LeaseRecord leaseRecordFromJson(const Json& lease);

}  // namespace kf
