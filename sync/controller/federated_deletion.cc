#include "sync/controller/federated_deletion.h"

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "apis/meta/join.h"
#include "federation/controller/finalizers.h"
#include "sync/controller/sync_steps.h"
#include "sync/io/dispatcher.h"
#include "sync/plan/delete_options.h"
#include "sync/plan/managed_label.h"

namespace kf::sync {

namespace {

ResourceClient federatedObjects(const SyncContext& context, const Json& federated_object) {
  return ResourceClient(*context.host, context.type.federated_resource,
                        objectNamespace(federated_object));
}

Status removeSyncFinalizer(const SyncContext& context, const Json& federated_object) {
  const FinalizerUpdate update =
      removeFinalizers(federated_object, {std::string(kSyncControllerFinalizer)});
  if (!update.changed) return boost::outcome_v2::success();
  Result<Json> patched = federatedObjects(context, federated_object)
                             .patch(objectName(federated_object), PatchType::kMerge,
                                    finalizersMergePatch(update.finalizers));
  if (!patched && !isNotFound(patched.error())) {
    return patched.error();
  }
  return boost::outcome_v2::success();
}

SyncObservation observeMembers(const SyncContext& context, const MemberObjectContext& members) {
  return observeClusters(context, context.clusters.clusters(), members);
}

std::vector<std::string> unreadyClusters(const SyncObservation& observed) {
  std::vector<std::string> out;
  for (const ClusterObservation& cluster : observed.clusters) {
    if (!cluster.ready) out.push_back(cluster.name);
  }
  return out;
}

std::vector<std::string> cacheErrors(const SyncObservation& observed) {
  std::vector<std::string> out;
  for (const ClusterObservation& cluster : observed.clusters) {
    if (cluster.cache_error) out.push_back(cluster.name + ": " + *cluster.cache_error);
  }
  return out;
}

// Failures the operations reported (the statuses left after a complete wait are failures).
std::vector<std::string> failedClusters(const DispatchOutcome& outcome) {
  std::vector<std::string> out;
  for (const auto& [cluster, result] : outcome.clusters) {
    if (result.status != PropagationStatus::kOk &&
        result.status != PropagationStatus::kWaitingForRemoval) {
      out.push_back(cluster + " (" + std::string(propagationStatusName(result.status)) + ")");
    }
  }
  return out;
}

// Unlabels every managed object the caches hold (those being deleted are left alone); "" on
// success, else what failed.
std::string unlabelAll(const SyncContext& context,
                       const std::shared_ptr<MemberObjectContext>& members) {
  const SyncObservation observed = observeMembers(context, *members);
  Dispatcher dispatcher(context.executors, context.clock, context.operation_timeout);
  dispatchSteps(planRelease(observed), members, DeleteOptions{}, dispatcher);
  const DispatchOutcome outcome = dispatcher.wait();
  if (context.stopping) {
    return "the controller is stopping";
  }
  std::vector<std::string> problems;
  if (outcome.timed_out) {
    problems.push_back("removing the managed label timed out");
  }
  if (const auto failed = failedClusters(outcome); !failed.empty()) {
    problems.push_back("removing the managed label failed in " + joinWith(failed, ", "));
  }
  if (const auto unready = unreadyClusters(observed); !unready.empty()) {
    problems.push_back("the following clusters were not ready: " + joinWith(unready, ", "));
  }
  const std::vector<std::string> errors = cacheErrors(observed);
  problems.insert(problems.end(), errors.begin(), errors.end());
  return joinWith(problems, ", ");
}

// Step 3: deletes (or, for the host's own namespace, unlabels) what the caches still hold.
// Returns kOk when nothing remains, kNeedsRecheck while deletions are under way.
ReconcileResult deleteFromClusters(SyncContext& context, const Json& federated_object,
                                   const ResolvedEventKey& names, const DeleteOptions& options) {
  auto members = memberObjectContext(context, std::make_shared<const Json>(federated_object),
                                     names.target, {});
  const DeletionPlan plan = planDeletion(observeMembers(context, *members));
  Dispatcher dispatcher(context.executors, context.clock, context.operation_timeout);
  dispatchSteps(plan.steps, members, options, dispatcher);
  const DispatchOutcome outcome = dispatcher.wait();
  if (context.stopping) {
    return makeError(Reason::kCancelled, "the controller is stopping");
  }
  const std::vector<std::string> failed = failedClusters(outcome);
  if (!plan.unready.empty() || !plan.cache_errors.empty() || outcome.timed_out || !failed.empty()) {
    return makeError(Reason::kUnknown,
                     "deleting " + context.type.target_type.kind + " " + names.target.key() +
                         " from member clusters is incomplete: unready [" +
                         joinWith(plan.unready, ", ") + "], errors [" +
                         joinWith(plan.cache_errors, ", ") + "], failed [" +
                         joinWith(failed, ", ") + "]" + (outcome.timed_out ? ", timed out" : ""));
  }
  return plan.remaining > 0 ? ReconcileStatus::kNeedsRecheck : ReconcileStatus::kOk;
}

// Step 4: asks every cluster directly (caches may lag) that the object is gone or unlabeled.
// "" when all clear, else why not.
std::string verifyRemoved(const SyncContext& context, const QualifiedName& target) {
  std::vector<std::string> problems;
  for (const ClusterSnapshot& cluster : context.clusters.clusters()) {
    if (!cluster.ready) {
      problems.push_back(cluster.name + " is not ready");
      continue;
    }
    Result<std::shared_ptr<RestClient>> client = context.clusters.client(cluster.name);
    if (!client || !client.value()) {
      problems.push_back(cluster.name + ": no client");
      continue;
    }
    Result<Json> live =
        ResourceClient(*client.value(), context.type.target_resource, target.ns).get(target.name);
    if (!live) {
      if (!isNotFound(live.error())) {
        problems.push_back(cluster.name + ": " + live.error().describe());
      }
      continue;
    }
    const bool host_namespace = context.type.target_is_namespace && [&] {
      ObjectPtr host = context.host_informers.hostNamespace(target.name);
      return host && objectUid(*host) == objectUid(live.value());
    }();
    // The host's own namespace is never unlabeled by this path (step 3 leaves it to the host):
    // being deleted, it counts as removed, or the namespace holding this FederatedNamespace
    // would wait for this finalizer forever (the host joined as a member of itself).
    if (host_namespace && hasDeletionTimestamp(live.value())) continue;
    if (hasDeletionTimestamp(live.value())) {
      problems.push_back(cluster.name + ": the object is still being deleted");
    } else if (hasManagedLabel(live.value())) {
      problems.push_back(cluster.name + ": the object still has the managed label");
    }
  }
  return joinWith(problems, ", ");
}

}  // namespace

Result<Json> ensureFinalizer(const SyncContext& context, const Json& federated_object) {
  const FinalizerUpdate update =
      addFinalizers(federated_object, {std::string(kSyncControllerFinalizer)});
  if (!update.changed) return federated_object;
  return federatedObjects(context, federated_object)
      .patch(objectName(federated_object), PatchType::kMerge,
             finalizersMergePatch(update.finalizers));
}

ReconcileResult releaseOrphans(SyncContext& context, const QualifiedName& target) {
  const std::string problems =
      unlabelAll(context, memberObjectContext(context, nullptr, target, {}));
  if (!problems.empty()) {
    return makeError(Reason::kUnknown, "releasing member objects " + context.type.target_type.kind +
                                           " " + target.key() + " is incomplete: " + problems);
  }
  return ReconcileStatus::kOk;
}

ReconcileResult ensureDeletion(SyncContext& context, const Json& federated_object,
                               const ResolvedEventKey& names) {
  context.versions.forget(names.federated);
  context.unknown_placement_warned.forget(names.federated.key());
  context.followed_placements.forget(names.federated.key());
  context.dependency_waits.set(names.federated.key(), {});
  if (!hasFinalizer(federated_object, kSyncControllerFinalizer)) {
    return ReconcileStatus::kOk;
  }
  if (isOrphaningEnabled(federated_object)) {
    // The finalizer goes first: the orphan path finishes unlabeling if this pass cannot.
    KF_TRYV(removeSyncFinalizer(context, federated_object));
    return releaseOrphans(context, names.target);
  }
  KF_TRY(options, deleteOptionsOf(federated_object));
  ReconcileResult deleted =
      deleteFromClusters(context, federated_object, names, options.value_or(DeleteOptions{}));
  if (!deleted || deleted.value() != ReconcileStatus::kOk) {
    return deleted;
  }
  if (const std::string problems = verifyRemoved(context, names.target); !problems.empty()) {
    return makeError(Reason::kUnknown, "waiting for the member objects of " +
                                           objectKey(federated_object) +
                                           " to be removed: " + problems);
  }
  KF_TRYV(removeSyncFinalizer(context, federated_object));
  return ReconcileStatus::kOk;
}

}  // namespace kf::sync
