#include "federation/election/lock_types.h"

#include "federation/election/annotation_lock.h"
#include "federation/election/multi_lock.h"

namespace kf {

Result<std::unique_ptr<ResourceLock>> makeResourceLock(std::string_view type, RestClient& client,
                                                       const std::string& ns,
                                                       const std::string& name,
                                                       const std::string& identity) {
  auto config_map = [&] {
    return std::make_unique<AnnotationLock>(client, kConfigMapResource, "ConfigMap", ns, name);
  };
  auto endpoints = [&] {
    return std::make_unique<AnnotationLock>(client, kEndpointsResource, "Endpoints", ns, name);
  };
  auto lease = [&] { return std::make_unique<LeaseLock>(client, ns, name); };
  std::unique_ptr<ResourceLock> lock;
  if (type == kConfigMapsLock) {
    lock = config_map();
  } else if (type == kEndpointsLock) {
    lock = endpoints();
  } else if (type == kLeasesLock) {
    lock = lease();
  } else if (type == kConfigMapsLeasesLock) {
    lock = std::make_unique<MultiLock>(config_map(), lease(), identity);
  } else if (type == kEndpointsLeasesLock) {
    lock = std::make_unique<MultiLock>(endpoints(), lease(), identity);
  } else {
    return makeError(Reason::kBadConfig, "Invalid lock-type " + std::string(type));
  }
  return lock;
}

}  // namespace kf
