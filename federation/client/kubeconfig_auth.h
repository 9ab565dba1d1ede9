#pragma once
// The authentication a kubeconfig user entry asks for beyond certificates and tokens: basic
// authentication, an exec credential plugin, impersonation, and auth-provider entries (oidc as
// client-go's; the others refused, naming the exec plugin that replaced each). Read when the
// file is parsed; checked with client-go's rules when a context uses the user.

#include <yaml-cpp/yaml.h>

#include <string>

#include "federation/client/kubeconfig.h"
#include "federation/client/kubeconfig_fields.h"

namespace kf::kubeconfig_fields {

// username, password, exec, auth-provider and as* of a user entry's body, into `user`.
Status parseUserAuth(const YAML::Node& body, const ParseContext& file, const std::string& path,
                     KubeconfigUser& user);

// The cluster entry's exec extension (extensions[name="client.authentication.k8s.io/exec"]).
Result<Json> parseExecExtension(const YAML::Node& cluster_body, const ParseContext& file,
                                const std::string& path);

// Checks the user's authentication settings and puts them into `out`, which already holds the
// cluster's settings (an exec plugin asking for cluster information gets them). `path` is
// "users[name=\"u\"].user".
Status applyUserAuth(const std::string& user_name, const KubeconfigUser& user,
                     const std::string& path, const KubeconfigCluster& cluster, RestConfig& out);

}  // namespace kf::kubeconfig_fields
