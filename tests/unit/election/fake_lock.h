#pragma once
// An in-memory lock object with the server's compare-and-swap on resourceVersion, plus knobs to
// make calls fail or to let a rival write in between a read and a write. Its stored form (raw)
// is the record as a ConfigMap lock's annotation holds it.

#include <functional>
#include <optional>
#include <string>

#include "federation/election/leader_record.h"
#include "federation/election/lease_lock.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

class FakeLock final : public ResourceLock {
 public:
  // `kind` names the object in event targets ("ConfigMap", "Lease", ...).
  explicit FakeLock(std::string kind = "Lease") : kind_(std::move(kind)) {}

  Result<VersionedLease> get() override {
    MutexLock lock(mu_);
    ++gets_;
    if (failing_) return makeError(Reason::kConnectionFailed, "injected failure");
    if (!lease_) return makeError(Reason::kNotFound, "leases \"lock\" not found");
    return *lease_;
  }

  Result<VersionedLease> create(const LeaseRecord& record) override {
    MutexLock lock(mu_);
    if (failing_) return makeError(Reason::kConnectionFailed, "injected failure");
    if (lease_) return makeError(Reason::kAlreadyExists, "leases \"lock\" already exists");
    setLocked(record);
    return *lease_;
  }

  Result<VersionedLease> update(const LeaseRecord& record,
                                const std::string& resource_version) override {
    MutexLock lock(mu_);
    ++updates_;
    if (failing_) return makeError(Reason::kConnectionFailed, "injected failure");
    if (rival_write_) {  // someone else's write lands between our read and our write
      auto write = std::move(rival_write_);
      rival_write_ = nullptr;
      setLocked(write(lease_->record));
    }
    if (!lease_) return makeError(Reason::kNotFound, "leases \"lock\" not found");
    if (lease_->resource_version != resource_version) {
      return makeError(Reason::kConflict, "the object has been modified");
    }
    setLocked(record);
    return *lease_;
  }

  std::string describe() const override { return "ns/lock"; }
  std::vector<ObjectReference> eventTargets() const override {
    return {ObjectReference{
        .api_version = "v1", .kind = kind_, .namespace_name = "ns", .name = "lock"}};
  }

  void set(const LeaseRecord& record) {
    MutexLock lock(mu_);
    setLocked(record);
  }
  // Removes the object, as if deleted.
  void erase() {
    MutexLock lock(mu_);
    lease_.reset();
  }
  std::optional<LeaseRecord> record() const {
    MutexLock lock(mu_);
    if (!lease_) return std::nullopt;
    return lease_->record;
  }
  void setFailing(bool failing) {
    MutexLock lock(mu_);
    failing_ = failing;
  }
  void rivalWritesBeforeNextUpdate(std::function<LeaseRecord(LeaseRecord)> write) {
    MutexLock lock(mu_);
    rival_write_ = std::move(write);
  }
  int gets() const {
    MutexLock lock(mu_);
    return gets_;
  }
  int updates() const {
    MutexLock lock(mu_);
    return updates_;
  }

 private:
  void setLocked(const LeaseRecord& record) KF_REQUIRES(mu_) {
    lease_ = VersionedLease{record, std::to_string(++version_), encodeLeaderRecord(record)};
  }

  const std::string kind_;
  mutable Mutex mu_;
  std::optional<VersionedLease> lease_ KF_GUARDED_BY(mu_);
  int version_ KF_GUARDED_BY(mu_) = 0;
  int gets_ KF_GUARDED_BY(mu_) = 0;
  int updates_ KF_GUARDED_BY(mu_) = 0;
  bool failing_ KF_GUARDED_BY(mu_) = false;
  std::function<LeaseRecord(LeaseRecord)> rival_write_ KF_GUARDED_BY(mu_);
};

// A lock that forwards to one the test keeps (say, to put a FakeLock inside a MultiLock).
class ForwardingLock final : public ResourceLock {
 public:
  explicit ForwardingLock(ResourceLock& lock) : lock_(lock) {}
  Result<VersionedLease> get() override { return lock_.get(); }
  Result<VersionedLease> create(const LeaseRecord& record) override { return lock_.create(record); }
  Result<VersionedLease> update(const LeaseRecord& record, const std::string& version) override {
    return lock_.update(record, version);
  }
  std::string describe() const override { return lock_.describe(); }
  std::vector<ObjectReference> eventTargets() const override { return lock_.eventTargets(); }

 private:
  ResourceLock& lock_;
};

}  // namespace kf::test
