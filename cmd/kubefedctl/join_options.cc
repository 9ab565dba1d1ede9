#include "cmd/kubefedctl/join_options.h"

#include "apis/meta/join.h"
#include "apis/meta/name_validation.h"

namespace kf::kubefedctl {
namespace {

bool hasSlashOrColon(const std::string& name) {
  return name.find_first_of("/:") != std::string::npos;
}

}  // namespace

void JoinFlags::addTo(FlagSet& flags) {
  global.addTo(flags);
  flags.addString("cluster-context", 0, &cluster_context,
                  "Name of the cluster's context in the local kubeconfig. Defaults to cluster "
                  "name if unspecified.");
  flags.addString("host-cluster-name", 0, &host_cluster_name,
                  "If set, overrides the use of host-cluster-context name in resource names "
                  "created in the target cluster. This option must be used when the context name "
                  "has characters invalid for kubernetes resources like \"/\" and \":\".");
}

Result<JoinTarget> joinTargetFromFlags(const JoinFlags& flags,
                                       const std::vector<std::string>& positional) {
  if (positional.empty()) return makeError(Reason::kInvalid, "CLUSTER_NAME is required");
  if (positional.size() > 1) {
    return makeError(Reason::kInvalid, "expected one CLUSTER_NAME, got " +
                                           std::to_string(positional.size()) + " arguments");
  }
  JoinTarget target;
  target.cluster_name = positional.front();
  if (auto errors = meta::dns1123SubdomainErrors(target.cluster_name); !errors.empty()) {
    return makeError(Reason::kInvalid,
                     "invalid cluster name \"" + target.cluster_name +
                         "\" (it names the KubeFedCluster): " + joinWith(errors, "; "));
  }
  if (hasSlashOrColon(flags.host_cluster_name)) {
    return makeError(Reason::kInvalid, "host-cluster-name may not contain \"/\" or \":\"");
  }
  target.cluster_context =
      flags.cluster_context.empty() ? target.cluster_name : flags.cluster_context;
  target.host_context = flags.global.host_cluster_context;
  target.host_cluster_name = flags.host_cluster_name;
  return target;
}

Status completeHostCluster(JoinTarget& target, const Kubeconfig& kubeconfig) {
  if (target.host_context.empty()) target.host_context = kubeconfig.current_context;
  if (target.host_context.empty()) {
    return makeError(Reason::kBadConfig,
                     "no host cluster context: pass --host-cluster-context or set the "
                     "current-context of " +
                         kubeconfig.origin());
  }
  if (!target.host_cluster_name.empty()) return boost::outcome_v2::success();
  if (hasSlashOrColon(target.host_context)) {
    return makeError(Reason::kInvalid,
                     "host-cluster-name must be set if the name of the host cluster context "
                     "contains one of \":\" or \"/\"");
  }
  target.host_cluster_name = target.host_context;
  return boost::outcome_v2::success();
}

Result<ResolvedJoin> resolveJoin(const JoinFlags& flags,
                                 const std::vector<std::string>& positional) {
  KF_TRY(target, joinTargetFromFlags(flags, positional));
  KF_TRY(kubeconfig, flags.global.loadKubeconfig());
  KF_TRYV(completeHostCluster(target, kubeconfig));
  return ResolvedJoin{std::move(kubeconfig), std::move(target)};
}

}  // namespace kf::kubefedctl
