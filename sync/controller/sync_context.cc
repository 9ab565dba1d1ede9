#include "sync/controller/sync_context.h"

#include <utility>

namespace kf::sync {

GroupVersionResource groupVersionResourceOf(const core::ApiResource& type) {
  return {type.group, type.version, type.plural_name, type.namespaced()};
}

Result<SyncTypeInfo> syncTypeInfo(core::FederatedTypeConfig ftc, const ControlPlaneConfig& config) {
  core::setFederatedTypeConfigDefaults(ftc);
  SyncTypeInfo info;
  info.target_type = ftc.spec.target_type;
  info.federated_type = ftc.spec.federated_type;
  // FederatedNamespace lives in the namespace it describes, whatever its FTC says.
  info.federated_type.scope = std::string(
      core::federatedTypeNamespaced(ftc) ? core::kScopeNamespaced : core::kScopeCluster);
  info.target_resource = groupVersionResourceOf(info.target_type);
  info.federated_resource = groupVersionResourceOf(info.federated_type);
  info.target_is_namespace = info.target_type.kind == "Namespace" && info.target_type.group.empty();
  info.raw_status_collection = config.raw_resource_status_collection &&
                               ftc.spec.status_collection.value_or("") == core::kEnabled;
  info.kubefed_namespace = config.kubefed_namespace;
  info.namespace_scoped_control_plane = config.namespaced_scope;
  info.skip_adopting = config.skip_adopting_resources;
  info.policy_defaults =
      policyAnnotations(objectAnnotations(Json{{"metadata", ftc.header.metadata}}));
  if (config.namespaced_scope && !info.target_type.namespaced()) {
    return makeError(Reason::kInvalid,
                     "FederatedTypeConfig " + ftc.name() + ": the cluster-scoped type " +
                         info.target_type.kind +
                         " cannot be propagated by a namespace-scoped control plane");
  }
  if (info.federated_resource.resource.empty() || info.target_resource.resource.empty()) {
    return makeError(Reason::kInvalid, "FederatedTypeConfig " + ftc.name() +
                                           ": the target or federated type has no plural name");
  }
  return info;
}

MemberObjectContext memberObjectBasics(const SyncTypeInfo& type, ObjectPtr federated,
                                       const QualifiedName& target,
                                       ClusterVersions recorded_versions,
                                       std::string host_namespace_uid) {
  MemberObjectContext out;
  out.federated = std::move(federated);
  out.target_type = type.target_type;
  out.target_resource = type.target_resource;
  out.target = target;
  out.recorded_versions = std::move(recorded_versions);
  out.host_namespace_uid = std::move(host_namespace_uid);
  out.skip_adopting = type.skip_adopting;
  return out;
}

std::shared_ptr<MemberObjectContext> memberObjectContext(const SyncContext& context,
                                                         ObjectPtr federated,
                                                         const QualifiedName& target,
                                                         ClusterVersions recorded_versions) {
  std::string host_namespace_uid;
  if (context.type.target_is_namespace) {
    if (ObjectPtr host_namespace = context.host_informers.hostNamespace(target.name)) {
      host_namespace_uid = objectUid(*host_namespace);
    }
  }
  auto out = std::make_shared<MemberObjectContext>(
      memberObjectBasics(context.type, std::move(federated), target, std::move(recorded_versions),
                         std::move(host_namespace_uid)));
  out->client = [&clusters = context.clusters](const std::string& cluster) {
    return clusters.client(cluster);
  };
  out->recorder = context.recorder;
  out->clock = &context.clock;
  return out;
}

}  // namespace kf::sync
