#include "sync/controller/propagation_pass.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "apis/meta/join.h"
#include "sync/controller/dependency_gate.h"
#include "sync/controller/followed_placement.h"
#include "sync/controller/override_policies.h"
#include "sync/controller/pass_inputs.h"
#include "sync/controller/policy_inputs.h"
#include "sync/controller/rollout_pass.h"
#include "sync/controller/sync_steps.h"
#include "sync/io/dispatcher.h"
#include "sync/io/federated_status_writer.h"

namespace kf::sync {

namespace {

void warn(const SyncContext& context, const Json& federated_object, const std::string& reason,
          const std::string& message) {
  if (context.recorder) {
    context.recorder->event(referenceTo(federated_object), EventType::kWarning, reason, message);
  }
}

// status.observedGeneration; 0 when absent.
std::int64_t observedGeneration(const Json& federated_object) {
  const auto status = federated_object.find("status");
  if (status == federated_object.end() || !status->is_object()) return 0;
  const auto generation = status->find("observedGeneration");
  return generation != status->end() && generation->is_number_integer()
             ? generation->get<std::int64_t>()
             : 0;
}

// Ours, not KubeFed's: one Warning event per generation of the federated object for the names
// of unknownPlacedClusters, since such a name is also often a typo. The first reconcile of a
// generation is the one that finds status.observedGeneration behind; a restart does not repeat it.
void warnUnknownPlacedOncePerGeneration(SyncContext& context, const Json& federated_object,
                                        const QualifiedName& federated,
                                        const std::vector<ClusterSnapshot>& clusters) {
  const std::vector<std::string> unknown = unknownPlacedClusters(federated_object, clusters);
  const std::int64_t generation = objectGeneration(federated_object);
  if (unknown.empty() || observedGeneration(federated_object) == generation ||
      !context.unknown_placement_warned.firstFor(federated.key(), generation)) {
    return;
  }
  std::string names;
  for (const std::string& name : unknown) names += (names.empty() ? "\"" : ", \"") + name + "\"";
  warn(context, federated_object, "ClusterNotFound",
       "placement.clusters names " + names +
           ", not joined as KubeFedClusters: nothing is propagated there until a cluster of that "
           "name is joined (check the name, or run kubefedctl join)");
}

// KubeFed records these cluster errors as events.
void reportStatusSteps(const MemberObjectContext& members, const std::vector<ClusterStep>& steps) {
  for (const ClusterStep& step : steps) {
    if (step.status == PropagationStatus::kClusterNotReady ||
        step.status == PropagationStatus::kCachedRetrievalFailed) {
      recordClusterError(members, *step.status, step.reason);
    }
  }
}

std::string describeTimeout(int operations, Duration timeout,
                            const std::vector<std::string>& unresponsive) {
  const auto seconds = [](Duration d) {
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(d).count()) + "s";
  };
  if (!unresponsive.empty()) {
    return "Failed to finish " + std::to_string(operations) +
           " operations: stopped waiting for clusters that answered nothing for " +
           seconds(kUnresponsiveAfter) + ": " + joinWith(unresponsive, ", ");
  }
  return "Failed to finish " + std::to_string(operations) + " operations in " + seconds(timeout);
}

// The override-policy patches of the object in its placed clusters; none without policies.
PolicyPatches overridePolicyPatches(SyncContext& context, const Json& federated_object,
                                    const std::vector<ClusterSnapshot>& clusters,
                                    const std::set<std::string>& placement) {
  if (context.override_policies == nullptr || !context.override_policies->active()) return {};
  return policyPatchesOf(context.type, federated_object, context.override_policies->current(),
                         clusters, placement);
}

// Failures on the policies' status and as events; nothing without policies.
void recordPolicyOutcome(SyncContext& context, const Json& federated_object,
                         const PolicyPatches& patches) {
  if (context.override_policies == nullptr || !context.override_policies->active()) return;
  context.override_policies->record(federated_object, patches, [&context](const std::string& key) {
    return context.host_informers.federatedObject(key) != nullptr;
  });
}

ReconcileResult writeStatus(SyncContext& context, const Json& federated_object,
                            PropagationOutcome outcome) {
  if (!outcome.raw_status_collection) {
    for (auto& [name, cluster] : outcome.clusters) {
      cluster.remote_status.reset();
    }
  }
  ResourceClient federated_objects(*context.host, context.type.federated_resource,
                                   objectNamespace(federated_object));
  Result<FederatedStatusUpdate> written = writeFederatedStatus(
      federated_objects, federated_object, outcome, context.clock, &context.written_objects);
  if (!written) {
    ApiError error = written.error();
    error.message = "updating the status: " + error.message;
    return error;
  }
  if (written.value().rollout_pruned && !context.rollout_summary_pruned.exchange(true)) {
    spdlog::warn(
        "The CRD of {} does not declare status.rollout, so the API server drops the staged "
        "rollout's summary; generate the CRD again with this project's `kubefedctl enable` to "
        "get it. The RolloutRun keeps the run either way. No more summaries are written for this "
        "type until the controller restarts.",
        context.type.federated_type.kind);
  }
  // Success overall while a cluster failed in a way worth retrying: back off and try again.
  if (written.value().retry_recoverable) {
    return makeError(Reason::kUnknown,
                     "propagation failed in some member cluster (see the "
                     "federated object's status.clusters); retrying");
  }
  return ReconcileStatus::kOk;
}

}  // namespace

ReconcileResult propagate(SyncContext& context, const Json& federated_object,
                          const ResolvedEventKey& names, const Json* federated_namespace) {
  PropagationOutcome outcome;
  outcome.raw_status_collection = context.type.raw_status_collection;
  outcome.namespace_facts = namespaceFactsOf(context.type, federated_namespace != nullptr);

  const std::vector<ClusterSnapshot> clusters = context.clusters.clusters();
  Result<std::set<std::string>> selected =
      placementOf(context.type, federated_object, federated_namespace, clusters);
  if (!selected) {
    warn(context, federated_object, "ComputePlacementFailed",
         "Failed to compute placement: " + selected.error().message);
    outcome.reason = AggregateReason::kComputePlacementFailed;
    return writeStatus(context, federated_object, std::move(outcome));
  }
  if (context.type.targetNamespaced()) {  // beyond KubeFed, opt-in by annotation
    KF_TRY(followed, followedPlacementOf(context, federated_object, federated_namespace, clusters));
    if (followed.kind == FollowedPlacement::Kind::kNotSynced) return ReconcileStatus::kNotSynced;
    if (followed.kind == FollowedPlacement::Kind::kFollowed) {
      selected = std::move(followed.clusters);
    }
  }
  const VersionHashes hashes = versionHashesOf(federated_object);
  auto policy_patches = std::make_shared<const PolicyPatches>(
      overridePolicyPatches(context, federated_object, clusters, selected.value()));
  if (!hashes.error.empty()) {
    spdlog::error("Cannot track the versions of {}: {}", objectKey(federated_object), hashes.error);
  }
  auto members = memberObjectContext(
      context, std::make_shared<const Json>(federated_object), names.target,
      hashes.error.empty() ? versionsUnderPolicies(context.versions.versionsFor(
                                                       names.federated, hashes.template_version,
                                                       hashes.overrides_version),
                                                   *policy_patches)
                           : ClusterVersions{});
  members->version_error = hashes.error;
  if (!policy_patches->by_cluster.empty()) members->policy_patches = policy_patches;
  Result<MemberPolicy> policy = resolveMemberPolicy(context.type.policy_defaults, federated_object);
  if (policy) {
    members->policy = std::move(policy.value());
  } else {
    warn(context, federated_object, "InvalidDriftPolicy",
         policy.error().message + "; KubeFed's behaviour (Revert) applies until it is corrected");
  }

  // Observe, decide, act.
  SyncObservation observed = observeClusters(context, clusters, *members);
  observed.placement = selected.value();
  warnUnknownPlacedOncePerGeneration(context, federated_object, names.federated, clusters);
  KF_TRY(rollout, RolloutPass::begin(context, federated_object, hashes, clusters, observed));
  std::vector<ClusterStep> steps = planPropagation(observed);
  if (rollout) steps = rollout->adjust(std::move(steps), *members);
  GatedSteps gated = orderAfterFollowers(context, federated_object, std::move(steps));
  steps = std::move(gated.steps);
  reportStatusSteps(*members, steps);
  Dispatcher dispatcher(context.executors, context.clock, context.operation_timeout);
  // A cluster dropped from placement loses its object with default options, as in KubeFed:
  // kubefed.io/deleteoption is for the deletion of the federated object itself.
  const int operations = dispatchSteps(steps, members, DeleteOptions{}, dispatcher);
  DispatchOutcome dispatched = dispatcher.wait();
  // Recorded even while stopping: the writes that completed before the cancel happened, and a
  // version left unrecorded is a write to that member by the next process.
  if (hashes.error.empty()) {
    std::set<std::string> versioned = selected.value();
    ClusterVersions written = versionsWithPolicies(dispatched.versions, *policy_patches);
    if (rollout) {  // a cluster sent the previous template holds no version of this one
      std::erase_if(versioned, [&](const std::string& c) { return rollout->offTheNewTemplate(c); });
      std::erase_if(written,
                    [&](const auto& entry) { return rollout->offTheNewTemplate(entry.first); });
    }
    Status recorded = context.versions.update(federated_object, hashes.template_version,
                                              hashes.overrides_version, versioned, written);
    if (!recorded) {
      spdlog::error("Failed to record the propagated versions of {}: {}",
                    objectKey(federated_object), recorded.error().describe());
    }
  }
  std::optional<Duration> recheck = gated.recheck;
  if (rollout) {  // also while stopping: a restart must know what each cluster holds
    KF_TRY(next, rollout->finish(context, federated_object, dispatched.versions));
    if (next && (!recheck || *next < *recheck)) recheck = next;
  }
  if (context.stopping) {
    return ReconcileStatus::kOk;  // operations were cancelled: their statuses mean nothing
  }
  recordPolicyOutcome(context, federated_object, *policy_patches);
  if (dispatched.timed_out) {
    warn(context, federated_object, "OperationTimeoutError",
         describeTimeout(operations, context.operation_timeout, dispatched.unresponsive));
  }

  outcome.clusters = std::move(dispatched.clusters);
  outcome.resources_updated = dispatched.resources_updated;
  if (rollout && !context.rollout_summary_pruned) outcome.rollout = rollout->summary();
  ReconcileResult written = writeStatus(context, federated_object, std::move(outcome));
  if (written && written.value() == ReconcileStatus::kOk && recheck) {
    return ReconcileStatus::requeueAfter(*recheck);
  }
  return written;
}

}  // namespace kf::sync
