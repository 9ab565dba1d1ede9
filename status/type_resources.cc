#include "status/type_resources.h"

#include <utility>

namespace kf::status {

GroupVersionResource resourceOf(const core::ApiResource& type) {
  return {type.group, type.version, type.plural_name, type.namespaced()};
}

TypeResources typeResourcesOf(core::FederatedTypeConfig ftc, const ControlPlaneConfig& config) {
  core::setFederatedTypeConfigDefaults(ftc);
  TypeResources out;
  out.target = resourceOf(ftc.spec.target_type);
  out.federated = resourceOf(ftc.spec.federated_type);
  // FederatedNamespace lives in the namespace it describes, whatever its FTC says.
  out.federated.namespaced = core::federatedTypeNamespaced(ftc);
  out.member_namespace = ftc.spec.target_type.namespaced() ? config.target_namespace : "";
  out.federated_key =
      InformerKey{.cluster = "",
                  .resource = out.federated,
                  .namespace_name = out.federated.namespaced ? config.target_namespace : "",
                  .label_selector = "",
                  .field_selector = ""};
  out.ftc = std::move(ftc);
  return out;
}

Result<TypeSources> leaseTypeSources(const TypeResources& type, const StatusControllerDeps& deps) {
  KF_TRY(federated, InformerSource::lease(deps.host_informers, type.federated_key));
  return TypeSources{
      .federated = std::move(federated),
      .members = std::make_unique<MemberInformers>(
          MemberInformersOptions{.target = type.target, .target_namespace = type.member_namespace},
          deps.member_informers, deps.clusters, deps.clock, memberIo(deps.member_io))};
}

Result<ClusterObjects> readyMemberObjects(const TypeResources& type, const MemberInformers& members,
                                          const ClusterRegistry& clusters, const std::string& key) {
  ClusterObjects out;
  for (const ClusterSnapshot& cluster : clusters.clusters()) {
    if (!cluster.ready) continue;
    Result<ObjectPtr> cached = members.cached(cluster.name, key);
    if (!cached) {
      ApiError error = cached.error();
      error.message = "reading " + type.ftc.spec.target_type.kind + " \"" + key +
                      "\" of cluster \"" + cluster.name + "\": " + error.message;
      return error;
    }
    out.emplace_back(cluster.name, std::move(cached).value());
  }
  return out;
}

ControllerBuilder statusControllerBuilder(std::string name, const StatusControllerDeps& deps) {
  ControllerBuilder builder(std::move(name), deps.clock);
  builder.concurrency(deps.config.status_max_concurrent_reconciles)
      .delays(deps.retry_delay, deps.config.cluster_available_delay);
  return builder;
}

}  // namespace kf::status
