#pragma once
// The host cluster's half of `kubefedctl join` (spec §3.1 steps 1, 7, 8): the scope from the
// KubeFedConfig, the Secret holding the member's token and the KubeFedCluster.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cmd/kubefedctl/join_objects.h"
#include "federation/client/resource_client.h"

namespace kf::kubefedctl {

// spec.scope of the KubeFedConfig "kubefed" in the KubeFed namespace.
Result<JoinScope> readJoinScope(RestClient& host, const std::string& kubefed_namespace);

// The KubeFedCluster `cluster_name`, if there is one. When there is and error_on_existing is
// set, the cluster is already joined: an error that says how to go on.
Result<std::optional<Json>> findKubeFedCluster(RestClient& host,
                                               const std::string& kubefed_namespace,
                                               const std::string& cluster_name,
                                               bool error_on_existing);

struct HostSecretRequest {
  std::string cluster_name;
  std::string kubefed_namespace;
  std::string secret_name;  // --secret-name; "" = generated "<cluster>-xxxxx"
  std::string token_base64;
  bool error_on_existing = true;
};

// Writes the token to the host and returns the Secret's name. Reused, in this order: the Secret
// named by --secret-name (an error when error_on_existing and an earlier join of this cluster did
// not write it), else a Secret an earlier join of this cluster wrote (kJoinedClusterAnnotation);
// only then is a new one generated. A reused Secret gets the new token when it differs.
Result<std::string> writeHostSecret(RestClient& host, const HostSecretRequest& request,
                                    std::ostream& out);

// Creates the KubeFedCluster, or replaces the spec of `existing` (a JSON merge patch).
Status writeKubeFedCluster(RestClient& host, const Json& desired,
                           const std::optional<Json>& existing, std::ostream& out);

// The Secrets join wrote for `cluster_name` (by kJoinedClusterAnnotation), sorted by name.
Result<std::vector<Json>> joinedClusterSecrets(ResourceClient& secrets,
                                               const std::string& cluster_name);

}  // namespace kf::kubefedctl
