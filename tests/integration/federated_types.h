#pragma once
// Enabling a federated type the way `kubefedctl enable NAME` does, for tests that run the
// controllers in the test process against the local clusters' host.

#include <string>

#include "federation/client/rest_client.h"

namespace kf::integration {

// Generates the federated CRD and FederatedTypeConfig of the API type `name` (discovered in
// `host`), creates the CRD or replaces the one there and waits until it is Established. Returns
// the FederatedTypeConfig without storing it: the test decides who starts the controllers.
Result<Json> installFederatedType(RestClient& host, const std::string& name);

}  // namespace kf::integration
