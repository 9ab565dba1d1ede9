#pragma once
// Where shell completion finds its words: the kubeconfig's contexts and, on the host cluster,
// FederatedTypeConfigs, KubeFedClusters, namespaces, API types and objects. Each is best effort:
// an unreachable cluster completes nothing rather than failing or hanging the shell for long.

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

std::vector<std::string> contextNames(const GlobalOptions& global);
// FederatedTypeConfig names (their target types: "configmaps", "deployments.apps").
std::vector<std::string> typeConfigNames(const GlobalOptions& global);
// The plural names of the federated types the FederatedTypeConfigs declare.
std::vector<std::string> federatedTypeNames(const GlobalOptions& global);
std::vector<std::string> kubefedClusterNames(const GlobalOptions& global);
std::vector<std::string> namespaceNames(const GlobalOptions& global);
// Plural names of every API type in each group's preferred version ("plural.group" outside the
// core group), for `enable`.
std::vector<std::string> apiTypeNames(const GlobalOptions& global);
// Names of the objects of `type` (looked up as `enable` does) in `ns`.
std::vector<std::string> objectNames(const GlobalOptions& global, const std::string& type,
                                     const std::string& ns);

// Values of the flags every host command has: contexts, files, namespaces, output formats.
Completion completeGlobalFlag(const GlobalOptions& global, const std::string& flag);

}  // namespace kf::kubefedctl
