#pragma once
// client-go's MultiLock, behind the migration lock types configmapsleases and endpointsleases:
// candidates on the old lock (the primary), on the new one (the secondary) and on both never
// lead at once, because every write goes to both and a reader honours either.

#include <memory>
#include <string>

#include "federation/election/lease_lock.h"

namespace kf {

// The holder a MultiLock reports while its two records name different holders.
inline constexpr char kUnknownLeader[] = "leaderelection.k8s.io/unknown";

// Not thread-safe: it belongs to one elector, which calls it from one thread.
class MultiLock final : public ResourceLock {
 public:
  // `identity`: this candidate's, as the elector writes it.
  MultiLock(std::unique_ptr<ResourceLock> primary, std::unique_ptr<ResourceLock> secondary,
            std::string identity);

  // The primary's record (NotFound without it). While the secondary is missing, the primary
  // alone counts if another candidate (an old client) holds it; otherwise the secondary's
  // NotFound makes the elector create both. The holder reads kUnknownLeader while the two differ,
  // and a change of either record is a change.
  Result<VersionedLease> get() override;
  // Both; a primary that exists already is left as it is.
  Result<VersionedLease> create(const LeaseRecord& record) override;
  // The primary (compare-and-swap on `resource_version`, the primary's), then the secondary,
  // created if missing.
  Result<VersionedLease> update(const LeaseRecord& record,
                                const std::string& resource_version) override;
  std::string describe() const override { return primary_->describe(); }
  std::vector<ObjectReference> eventTargets() const override;

 private:
  VersionedLease combine(const VersionedLease& primary, const VersionedLease& secondary) const;

  std::unique_ptr<ResourceLock> primary_;
  std::unique_ptr<ResourceLock> secondary_;
  std::string identity_;
};

}  // namespace kf
