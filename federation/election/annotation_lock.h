#pragma once
// client-go's ConfigMap and Endpoints locks, KubeFed's default kinds: the record is the JSON in
// the control-plane.alpha.kubernetes.io/leader annotation of a core/v1 ConfigMap or Endpoints
// object named after the lock. The rest of the object is kept as it is; writes carry the
// resourceVersion last read, so two candidates racing cannot both win.

#include <string>

#include "federation/election/lease_lock.h"

namespace kf {

extern const GroupVersionResource kConfigMapResource;
extern const GroupVersionResource kEndpointsResource;

// Not thread-safe: it belongs to one elector, which calls it from one thread.
class AnnotationLock final : public ResourceLock {
 public:
  // `resource` is kConfigMapResource or kEndpointsResource, `kind` its kind.
  AnnotationLock(RestClient& client, GroupVersionResource resource, std::string kind,
                 std::string ns, std::string name);

  // An object without the annotation reads as a record nobody holds.
  Result<VersionedLease> get() override;
  Result<VersionedLease> create(const LeaseRecord& record) override;
  // Writes the annotation into the object last read or written (an error before either).
  Result<VersionedLease> update(const LeaseRecord& record,
                                const std::string& resource_version) override;
  std::string describe() const override { return namespace_ + "/" + name_; }
  std::vector<ObjectReference> eventTargets() const override;

 private:
  Result<VersionedLease> remember(Result<Json> object);

  ResourceClient objects_;
  std::string kind_;
  std::string namespace_;
  std::string name_;
  Json last_;  // the object as last read or written; null before
};

}  // namespace kf
