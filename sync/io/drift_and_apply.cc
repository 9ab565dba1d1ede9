#include "sync/io/drift_and_apply.h"

#include <spdlog/spdlog.h>

#include "apis/meta/ascii.h"
#include "federation/metrics/kubefed_metrics.h"
#include "sync/plan/drift.h"

namespace kf::sync {

namespace {

ResourceClient memberObjects(const MemberObjectContext& context, RestClient& client) {
  return ResourceClient(client, context.target_resource, context.target.ns);
}

}  // namespace

void reportDrift(const MemberObjectContext& context, RestClient& client, const std::string& cluster,
                 const std::vector<FieldDifference>& drift, const Json* read) {
  Result<Json> live = read != nullptr ? Result<Json>(*read)
                                      : memberObjects(context, client).get(context.target.name);
  const std::vector<DriftedField> fields =
      attributeDrift(drift, live ? live.value() : Json::object(), kControllerUpdateManager,
                     hidesDriftValues(context.target_type));
  const std::string message = driftMessage(cluster, fields);
  if (!context.federated) return;
  metrics::countDriftDetected(toLower(context.federated->value("kind", "")), cluster);
  if (!context.recorder) {
    spdlog::warn("{}", message);
    return;
  }
  context.recorder->event(referenceTo(*context.federated), EventType::kWarning,
                          kDriftDetectedReason, message);
}

void reportFieldsOwnedElsewhere(const MemberObjectContext& context, const std::string& cluster,
                                const std::vector<OwnedField>& yielded) {
  const std::string message = fieldOwnedElsewhereMessage(cluster, yielded);
  if (!context.recorder || !context.federated) {
    spdlog::info("{}", message);
    return;
  }
  context.recorder->event(referenceTo(*context.federated), EventType::kWarning,
                          kFieldOwnedElsewhereReason, message);
}

Result<Json> applyToMember(const MemberObjectContext& context, RestClient& client,
                           const Json& patch) {
  ResourceClient objects = memberObjects(context, client);
  Result<Json> applied = objects.apply(patch, ApplyOptions{.field_manager = kApplyFieldManager});
  if (!applied && isConflict(applied.error()) &&
      conflictsOnlyWith(applied.error().causes, {kControllerUpdateManager})) {
    applied =
        objects.apply(patch, ApplyOptions{.field_manager = kApplyFieldManager, .force = true});
  }
  return applied;
}

}  // namespace kf::sync
