#pragma once
// What `kubefedctl join` and `unjoin` share (spec §3, §3.1, §3.2): the global flags, the joining
// cluster's name and kubeconfig context, and the host's name in generated object names.

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"

namespace kf::kubefedctl {

struct JoinFlags {
  GlobalOptions global;
  std::string cluster_context;
  std::string host_cluster_name;

  void addTo(FlagSet& flags);
};

// The two clusters of a join or unjoin, once flags and kubeconfig are resolved.
struct JoinTarget {
  std::string cluster_name;
  std::string cluster_context;    // --cluster-context, else the cluster name
  std::string host_context;       // --host-cluster-context, else the kubeconfig's current context
  std::string host_cluster_name;  // --host-cluster-name, else the host context
};

// Checks what needs no kubeconfig: exactly one CLUSTER_NAME, a valid cluster name, no '/' or ':'
// in --host-cluster-name. host_context stays "" when --host-cluster-context was not given.
Result<JoinTarget> joinTargetFromFlags(const JoinFlags& flags,
                                       const std::vector<std::string>& positional);

// joinTargetFromFlags, then the kubeconfig (loaded once, for both clusters) and
// completeHostCluster.
struct ResolvedJoin {
  Kubeconfig kubeconfig;
  JoinTarget target;
};
Result<ResolvedJoin> resolveJoin(const JoinFlags& flags,
                                 const std::vector<std::string>& positional);

// Defaults the host context to the kubeconfig's current context and the host cluster name to the
// host context, which then may not contain '/' or ':' (they cannot be part of object names).
Status completeHostCluster(JoinTarget& target, const Kubeconfig& kubeconfig);

}  // namespace kf::kubefedctl
