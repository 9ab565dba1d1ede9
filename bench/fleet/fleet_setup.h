#pragma once
// The federation side of the fleet benchmark: the simulated members joined to the host (a
// Secret with the member's token and a KubeFedCluster per member, as `kubefedctl join` would
// leave them: the simulation has no ServiceAccount token controller for join to wait on), and
// the benchmark's federated namespace.

#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "federation/client/rest_client.h"
#include "tests/support/simulated_member/simulated_members.h"

namespace kf::bench {

inline const GroupVersionResource kNamespaces{"", "v1", "namespaces", false};
inline const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};
inline const GroupVersionResource kFederatedConfigMaps{"types.kubefed.io", "v1beta1",
                                                       "federatedconfigmaps", true};

// Creates each member's Secret and KubeFedCluster in `kubefed_namespace`.
Status joinMembers(RestClient& host, const std::vector<sim::SimulatedMember>& members,
                   const std::string& ca_pem, const std::string& kubefed_namespace);

// Polls until `count` KubeFedClusters report Ready=True (at most `timeout`).
Status waitUntilClustersReady(RestClient& host, const std::string& kubefed_namespace, int count,
                              std::chrono::seconds timeout);

// Creates the namespace `ns` in the host and a FederatedNamespace placing it in every member.
Status federateNamespace(RestClient& host, const std::string& ns,
                         const std::vector<sim::SimulatedMember>& members);

// A FederatedConfigMap `name` in `ns`, placed in every member, data {rev: rev}.
Json federatedConfigMap(const std::string& ns, const std::string& name, const std::string& rev,
                        const std::vector<sim::SimulatedMember>& members);

}  // namespace kf::bench
