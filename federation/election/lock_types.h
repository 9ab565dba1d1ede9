#pragma once
// The lock types of client-go's resourcelock package by name, as KubeFedConfig's
// spec.leaderElect.resourceLock names them.

#include <memory>
#include <string>
#include <string_view>

#include "federation/election/lease_lock.h"

namespace kf {

inline constexpr std::string_view kConfigMapsLock = "configmaps";  // KubeFed's default
inline constexpr std::string_view kEndpointsLock = "endpoints";
inline constexpr std::string_view kLeasesLock = "leases";
// Migration locks: both objects, the first one primary (see MultiLock).
inline constexpr std::string_view kConfigMapsLeasesLock = "configmapsleases";
inline constexpr std::string_view kEndpointsLeasesLock = "endpointsleases";

// The lock of `type` on the object(s) `name` in `ns`, for the candidate `identity`. kBadConfig
// for a type client-go does not know.
Result<std::unique_ptr<ResourceLock>> makeResourceLock(std::string_view type, RestClient& client,
                                                       const std::string& ns,
                                                       const std::string& name,
                                                       const std::string& identity);

}  // namespace kf
