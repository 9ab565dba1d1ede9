#include "sync/controller/propagation_forecast.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "federation/controller/finalizers.h"
#include "sync/controller/federated_deletion.h"
#include "sync/controller/pass_inputs.h"
#include "sync/controller/policy_inputs.h"
#include "sync/io/dispatcher.h"
#include "sync/io/member_operations.h"
#include "sync/plan/desired_object.h"
#include "sync/plan/managed_label.h"
#include "sync/plan/sync_plan.h"

namespace kf::sync {

namespace {

const Json* memberIn(const ForecastInputs& inputs, const std::string& cluster) {
  auto it = inputs.members.find(cluster);
  return it == inputs.members.end() ? nullptr : &it->second;
}

// Member informers list only objects labeled kubefed.io/managed=true: the reconcile does not see
// the others until a create runs into them.
ObjectPtr cachedView(const Json* member) {
  if (member == nullptr || !hasManagedLabel(*member)) return nullptr;
  return std::make_shared<const Json>(*member);
}

SyncObservation observe(const ForecastInputs& inputs, const MemberObjectContext& members) {
  SyncObservation observed;
  for (const ClusterSnapshot& cluster : inputs.clusters) {
    ClusterObservation seen{.name = cluster.name, .ready = cluster.ready};
    if (cluster.ready) {
      seen.object = cachedView(memberIn(inputs, cluster.name));
      seen.host_namespace = seen.object && members.isHostNamespace(*seen.object);
    }
    observed.clusters.push_back(std::move(seen));
  }
  return observed;
}

std::string updateReason(const MemberObjectContext& members, const std::string& cluster) {
  if (members.recorded_versions.count(cluster) == 0) {
    return "no version is recorded for the current template and overrides (they changed, or "
           "the object was never written): the object is written again";
  }
  return "the member object changed since the controller last wrote it";
}

MemberForecast forecastUpdate(MemberForecast out, const MemberObjectContext& members,
                              const Json& cluster_object, bool adopting) {
  // The members were read from their API servers, managedFields included.
  UpdateDecision decision =
      decideUpdate(members, out.cluster, cluster_object, /*has_managed_fields=*/true);
  out.server_side = decision.server_side;
  out.yielded = decision.yielded;
  if (!decision.ok()) {
    out.status = decision.failure;
    out.reason = decision.error;
    return out;
  }
  out.status = statusAfterWait(provisionalStatus(OperationKind::kUpdate));
  out.drift = attributeDrift(decision.drift, cluster_object, kControllerUpdateManager,
                             hidesDriftValues(members.target_type));
  if (!decision.write && !out.drift.empty()) {
    out.status = PropagationStatus::kDrifted;
    out.reason =
        "the member object drifted from what the controller last wrote there, and "
        "the drift policy ReportOnly leaves it so";
    return out;
  }
  if (!decision.write) {
    out.reason = !decision.yielded.empty()
                     ? "the member object differs only in fields other managers own there: "
                       "nothing to write"
                 : decision.record_member_version
                     ? "the member object changed, but not in a field the controller sends: "
                       "nothing to write"
                     : "up to date: the member object has the version last written";
    return out;
  }
  out.action = adopting ? MemberAction::kAdopt : MemberAction::kUpdate;
  out.reason = adopting ? "an object of that name exists without the managed label: the create "
                          "fails and the controller adopts it"
                        : updateReason(members, out.cluster);
  out.desired = std::move(decision.desired);
  return out;
}

MemberForecast forecastCreate(MemberForecast out, const MemberObjectContext& members,
                              const Json* member) {
  if (member != nullptr) {
    if (adoptsExisting(members, *member)) {
      return forecastUpdate(std::move(out), members, *member, /*adopting=*/true);
    }
    out.status = PropagationStatus::kAlreadyExists;
    out.reason =
        "an unmanaged object of that name exists and adoption is disabled "
        "(KubeFedConfig spec.syncController.adoptResources: Disabled)";
    return out;
  }
  DesiredObject desired =
      desiredObjectForCluster(*members.federated, members.target_type, out.cluster, nullptr,
                              members.policyPatchesFor(out.cluster));
  if (!desired.ok()) {
    out.status = desired.failure;
    out.reason = desired.error;
    return out;
  }
  out.action = MemberAction::kCreate;
  out.desired = std::move(desired.object);
  out.status = statusAfterWait(provisionalStatus(OperationKind::kCreate));
  return out;
}

MemberForecast forecastStep(const ClusterStep& step, const MemberObjectContext& members,
                            const Json* member) {
  MemberForecast out{.cluster = step.cluster, .reason = step.reason};
  if (member != nullptr) out.live = *member;
  if (!step.operation) {
    out.status = step.status;
    return out;
  }
  switch (*step.operation) {
    case OperationKind::kCreate:
      return forecastCreate(std::move(out), members, member);
    case OperationKind::kUpdate:
      return forecastUpdate(std::move(out), members, *step.object, /*adopting=*/false);
    case OperationKind::kDelete:
      out.action = MemberAction::kDelete;
      break;
    case OperationKind::kRemoveManagedLabel:
      out.action = MemberAction::kRemoveManagedLabel;
      break;
  }
  out.status = statusAfterWait(provisionalStatus(*step.operation));
  return out;
}

// The steps the controller would take: a propagation pass, or the deletion of a federated object
// being deleted (§2.5.9).
std::vector<ClusterStep> stepsFor(const ForecastInputs& inputs, SyncObservation observed,
                                  const std::set<std::string>& placement, bool deleting) {
  if (deleting) {
    if (!hasFinalizer(inputs.federated_object, kSyncControllerFinalizer)) return {};
    if (isOrphaningEnabled(inputs.federated_object)) return planRelease(observed);
    return planDeletion(observed).steps;
  }
  observed.placement = placement;
  return planPropagation(observed);
}

void addUnreadable(const ForecastInputs& inputs, std::vector<MemberForecast>& forecasts) {
  for (const auto& unreadable : inputs.unreadable) {
    const std::string& cluster = unreadable.first;
    auto it = std::find_if(forecasts.begin(), forecasts.end(),
                           [&](const MemberForecast& f) { return f.cluster == cluster; });
    if (it == forecasts.end()) it = forecasts.insert(forecasts.end(), MemberForecast{});
    *it = MemberForecast{
        .cluster = cluster, .action = MemberAction::kUnknown, .reason = unreadable.second};
  }
  std::sort(forecasts.begin(), forecasts.end(),
            [](const MemberForecast& a, const MemberForecast& b) { return a.cluster < b.cluster; });
}

// The remote status the pass would collect for a cluster (raw status collection): the object
// it saw or wrote; after a create, the server's answer is unknown here, so none.
std::optional<Json> remoteStatusOf(const MemberForecast& forecast) {
  if (forecast.action == MemberAction::kDelete || forecast.action == MemberAction::kCreate ||
      !forecast.live.is_object()) {
    return std::nullopt;
  }
  return forecast.live.value("status", Json());
}

void forecastStatus(const ForecastInputs& inputs, PropagationForecast& forecast) {
  PropagationOutcome outcome;
  outcome.raw_status_collection = inputs.type.raw_status_collection;
  outcome.namespace_facts = namespaceFactsOf(inputs.type, inputs.federated_namespace.has_value());
  if (!forecast.placement_error.empty()) {
    outcome.reason = AggregateReason::kComputePlacementFailed;
  }
  for (const MemberForecast& member : forecast.clusters) {
    if (!member.status) continue;
    outcome.clusters[member.cluster] = ClusterOutcome{*member.status, remoteStatusOf(member)};
    outcome.resources_updated =
        outcome.resources_updated ||
        (!member.desired.is_null() && member.action != MemberAction::kCreate);
  }
  auto update = computeFederatedStatus(inputs.federated_object, outcome, inputs.now);
  if (!update) {
    forecast.status_error = update.error().message;
    return;
  }
  forecast.reason = update.value().reason;
  forecast.status = std::move(update.value().status);
}

// The valid policies of the type's federated kind among `objects`; the errors of the others go
// to `invalid`.
std::vector<policy::OverridePolicy> policiesOfKind(const SyncTypeInfo& type,
                                                   const std::vector<Json>& objects,
                                                   std::vector<std::string>& invalid) {
  std::vector<policy::OverridePolicy> out;
  for (const Json& object : objects) {
    if (policy::resourceKindOf(object) != type.federated_type.kind) continue;
    auto parsed = policy::parseOverridePolicy(object);
    if (parsed) {
      out.push_back(std::move(parsed).value());
    } else {
      invalid.push_back(object.value("kind", "") + " " + objectKey(object) + ": " +
                        parsed.error().message);
    }
  }
  return out;
}

void attachPolicies(const PolicyPatches& patches, std::vector<MemberForecast>& forecasts) {
  for (MemberForecast& member : forecasts) {
    member.policy_patches = patches.forCluster(member.cluster);
    for (const PolicyFailure& failure : patches.failures) {
      if (failure.cluster == member.cluster) member.policy_failures.push_back(failure);
    }
  }
}

}  // namespace

std::string_view memberActionName(MemberAction action) {
  switch (action) {
    case MemberAction::kNone:
      return "none";
    case MemberAction::kCreate:
      return "create";
    case MemberAction::kAdopt:
      return "adopt";
    case MemberAction::kUpdate:
      return "update";
    case MemberAction::kDelete:
      return "delete";
    case MemberAction::kRemoveManagedLabel:
      return "unlabel";
    case MemberAction::kUnknown:
      return "unknown";
  }
  return "unknown";
}

bool writesToMember(MemberAction action) {
  return action != MemberAction::kNone && action != MemberAction::kUnknown;
}

int PropagationForecast::memberWrites() const {
  return static_cast<int>(
      std::count_if(clusters.begin(), clusters.end(),
                    [](const MemberForecast& f) { return writesToMember(f.action); }));
}

namespace {

// As the pass does (followed_placement.h): the union of the referencing workloads' placements
// replaces the object's own.
void followWorkloads(const ForecastInputs& inputs, const Json* federated_namespace,
                     PropagationForecast& forecast, std::set<std::string>& placement) {
  const std::string& kind = inputs.type.target_type.kind;
  if (followsModeOf(inputs.federated_object) != FollowsMode::kWorkloads ||
      !inputs.type.targetNamespaced() || !inputs.type.target_type.group.empty() ||
      !referenceableKind(kind)) {
    return;
  }
  std::vector<ReferencingWorkload> workloads;
  for (const Json& workload : inputs.federated_workloads) {
    if (!referencesObject(workload, kind, objectName(inputs.federated_object))) continue;
    ReferencingWorkload entry{workload.value("kind", "") + " \"" + objectName(workload) + "\"", {}};
    auto selected = placementOf(inputs.type, workload, federated_namespace, inputs.clusters);
    if (selected) entry.placement = std::move(selected.value());
    workloads.push_back(std::move(entry));
  }
  placement = followerPlacement(workloads);
  forecast.followed_workloads = std::move(workloads);
}

}  // namespace

PropagationForecast forecastPropagation(const ForecastInputs& inputs) {
  PropagationForecast forecast;
  forecast.deleting = hasDeletionTimestamp(inputs.federated_object);
  std::set<std::string> placement;
  if (!forecast.deleting) {
    const Json* federated_namespace =
        inputs.federated_namespace ? &*inputs.federated_namespace : nullptr;
    auto selected =
        placementOf(inputs.type, inputs.federated_object, federated_namespace, inputs.clusters);
    if (!selected) {
      forecast.placement_error = "Failed to compute placement: " + selected.error().message;
      forecastStatus(inputs, forecast);
      return forecast;
    }
    placement = std::move(selected.value());
    followWorkloads(inputs, federated_namespace, forecast, placement);
  }
  const std::vector<policy::OverridePolicy> policies =
      policiesOfKind(inputs.type, inputs.override_policies, forecast.invalid_policies);
  auto patches = std::make_shared<const PolicyPatches>(
      forecast.deleting ? PolicyPatches{}
                        : policyPatchesOf(inputs.type, inputs.federated_object, policies,
                                          inputs.clusters, placement));
  const VersionHashes hashes = versionHashesOf(inputs.federated_object);
  const auto target =
      QualifiedName{inputs.type.target_is_namespace ? "" : objectNamespace(inputs.federated_object),
                    objectName(inputs.federated_object)};
  MemberObjectContext members = memberObjectBasics(
      inputs.type, std::make_shared<const Json>(inputs.federated_object), target,
      hashes.ok() && inputs.recorded
          ? versionsUnderPolicies(versionsForClusters(&*inputs.recorded, hashes.template_version,
                                                      hashes.overrides_version),
                                  *patches)
          : ClusterVersions{},
      inputs.host_namespace_uid);
  members.version_error = hashes.error;
  if (!patches->by_cluster.empty()) members.policy_patches = patches;
  // An invalid policy is KubeFed's in the pass too (which warns about it).
  Result<MemberPolicy> policy =
      resolveMemberPolicy(inputs.type.policy_defaults, inputs.federated_object);
  if (policy) members.policy = std::move(policy.value());

  for (const ClusterStep& step :
       stepsFor(inputs, observe(inputs, members), placement, forecast.deleting)) {
    forecast.clusters.push_back(forecastStep(step, members, memberIn(inputs, step.cluster)));
  }
  addUnreadable(inputs, forecast.clusters);
  attachPolicies(*patches, forecast.clusters);
  if (!forecast.deleting) forecastStatus(inputs, forecast);
  return forecast;
}

}  // namespace kf::sync
