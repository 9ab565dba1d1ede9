#include "sync/sync_context.h"

#include <utility>

namespace kf::sync {

std::shared_ptr<MemberObjectContext> memberObjectContext(const SyncContext& context,
                                                         ObjectPtr federated,
                                                         const QualifiedName& target,
                                                         ClusterVersions recorded_versions) {
  auto out = std::make_shared<MemberObjectContext>();
  out->federated = std::move(federated);
  out->target_type = context.type.target_type;
  out->target_resource = context.type.target_resource;
  out->target = target;
  out->recorded_versions = std::move(recorded_versions);
  if (context.type.target_is_namespace) {
    if (ObjectPtr host_namespace = context.host_informers.hostNamespace(target.name)) {
      out->host_namespace_uid = objectUid(*host_namespace);
    }
  }
  out->skip_adopting = context.type.skip_adopting;
  out->client = [&clusters = context.clusters](const std::string& cluster) {
    return clusters.client(cluster);
  };
  out->recorder = context.recorder;
  out->clock = &context.clock;
  return out;
}

}  // namespace kf::sync
