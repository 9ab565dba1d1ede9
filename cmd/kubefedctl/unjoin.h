#pragma once
// `kubefedctl unjoin CLUSTER_NAME` (spec §3.2): removes what join created. In the unjoining
// cluster: the (Cluster)Role(Binding)s of either scope, the token Secret, the ServiceAccount and
// the KubeFed namespace, unless that namespace is the host's own (same UID: the host joined
// itself). In the host: the Secret the KubeFedCluster names, Secrets an unfinished join of this
// cluster left, and the KubeFedCluster. Objects already gone are skipped. A member-side failure
// stops unjoin before the host side is touched, unless --force, which reports it as a warning
// and goes on (also when the member's kubeconfig context cannot be loaded). Propagated resources
// stay in the unjoined cluster.

#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"
#include "cmd/kubefedctl/join_objects.h"

namespace kf::kubefedctl {

struct UnjoinRequest {
  std::string cluster_name;
  std::string host_cluster_name;  // the host's name in generated object names
  std::string kubefed_namespace = kDefaultKubefedNamespace;
  bool force = false;
  bool dry_run = false;  // read only; reports what would be deleted
};

struct ObjectRef {
  ObjectKind kind;
  std::string ns;  // "" for cluster-scoped objects
  std::string name;
};

// What join may have created in a member for `service_account`, in deletion order: bindings
// before roles, the token Secret before its ServiceAccount. The namespace is not included.
std::vector<ObjectRef> joinedMemberObjects(const std::string& service_account,
                                           const std::string& kubefed_namespace);

// `member` is null when the unjoining cluster could not be reached (only with force).
Status unjoinCluster(RestClient& host, RestClient* member, const UnjoinRequest& request,
                     Streams streams);

CommandSpec unjoinCommand();

}  // namespace kf::kubefedctl
