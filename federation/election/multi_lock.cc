#include "federation/election/multi_lock.h"

namespace kf {

MultiLock::MultiLock(std::unique_ptr<ResourceLock> primary, std::unique_ptr<ResourceLock> secondary,
                     std::string identity)
    : primary_(std::move(primary)),
      secondary_(std::move(secondary)),
      identity_(std::move(identity)) {}

Result<VersionedLease> MultiLock::get() {
  KF_TRY(primary, primary_->get());
  auto secondary = secondary_->get();
  if (!secondary) {
    if (isNotFound(secondary.error()) && primary.record.holder_identity != identity_) {
      return primary;  // held by a candidate that only knows the old lock
    }
    return std::move(secondary).error();
  }
  return combine(primary, secondary.value());
}

Result<VersionedLease> MultiLock::create(const LeaseRecord& record) {
  auto primary = primary_->create(record);
  if (!primary && !isAlreadyExists(primary.error())) return std::move(primary).error();
  KF_TRY(secondary, secondary_->create(record));
  if (primary) return combine(primary.value(), secondary);
  KF_TRY(existing, primary_->get());
  return combine(existing, secondary);
}

Result<VersionedLease> MultiLock::update(const LeaseRecord& record,
                                         const std::string& resource_version) {
  KF_TRY(primary, primary_->update(record, resource_version));
  auto secondary = secondary_->get();
  if (!secondary && isNotFound(secondary.error())) {
    KF_TRY(created, secondary_->create(record));
    return combine(primary, created);
  }
  if (!secondary) return std::move(secondary).error();
  KF_TRY(updated, secondary_->update(record, secondary.value().resource_version));
  return combine(primary, updated);
}

std::vector<ObjectReference> MultiLock::eventTargets() const {
  std::vector<ObjectReference> targets = primary_->eventTargets();
  for (auto& target : secondary_->eventTargets()) targets.push_back(std::move(target));
  return targets;
}

VersionedLease MultiLock::combine(const VersionedLease& primary,
                                  const VersionedLease& secondary) const {
  VersionedLease out = primary;
  if (primary.record.holder_identity != secondary.record.holder_identity) {
    out.record.holder_identity = kUnknownLeader;
  }
  out.raw = primary.raw + "," + secondary.raw;
  return out;
}

}  // namespace kf
