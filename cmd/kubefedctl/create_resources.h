#pragma once
// The non-dry-run half of `kubefedctl enable` (spec §1.7 CreateResources): checks for conflicting
// FederatedTypeConfigs, writes the federated CRD, waits until it is Established and writes the
// FederatedTypeConfig.

#include <chrono>
#include <ostream>
#include <string>

#include "federation/client/rest_client.h"
#include "federation/crdgen/type_config.h"

namespace kf::kubefedctl {

struct CreateOptions {
  std::string kubefed_namespace;
  bool dry_run = false;
  std::chrono::milliseconds established_timeout{30'000};
};

Status createResources(RestClient& client, const EnableResources& resources,
                       const CreateOptions& options, std::ostream& out);

// Whether two targets are the same API served under different group/versions (e.g. apps/v1 and
// extensions/v1beta1 deployments): federating both would propagate the same objects twice.
bool equivalentApis(const Json& a, const Json& b);

// Waits (polling the client's clock) until the CRD `name` is Established; fails on a read error
// other than NotFound, or after `timeout`.
Status waitEstablished(RestClient& client, const std::string& name,
                       std::chrono::milliseconds timeout);

}  // namespace kf::kubefedctl
