#include "sync/controller/sync_reconciler.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "apis/meta/ascii.h"
#include "apis/meta/object.h"
#include "federation/metrics/kubefed_metrics.h"
#include "sync/controller/federated_deletion.h"
#include "sync/controller/propagation_pass.h"
#include "sync/controller/workload_followers.h"
#include "sync/plan/event_key.h"
#include "sync/plan/workload_references.h"

namespace kf::sync {

namespace {

// A federated object that the `namespaces` type ignores (§2.5.2): a FederatedNamespace named
// unlike its namespace, or one whose namespace is missing from the host's cache.
bool ignoredFederatedNamespace(const SyncContext& context, const Json& federated_object,
                               const ResolvedEventKey& names) {
  if (!context.type.target_is_namespace) {
    return false;
  }
  if (!isValidFederatedNamespaceName(names.federated)) {
    if (context.recorder) {
      context.recorder->event(referenceTo(federated_object), EventType::kWarning, "InvalidName",
                              std::string(kInvalidFederatedNamespaceNameMessage));
    }
    return true;
  }
  return context.host_informers.hostNamespace(names.target.name) == nullptr;
}

ReconcileResult reconcileFederated(SyncContext& context, const Json& federated_object,
                                   const ResolvedEventKey& names) {
  if (ignoredFederatedNamespace(context, federated_object, names)) {
    return ReconcileStatus::kOk;
  }
  if (hasDeletionTimestamp(federated_object)) {
    return ensureDeletion(context, federated_object, names);
  }
  Result<Json> finalized = [&] {
    WrittenObjects::PendingWrite patch = context.written_objects.beginWrite(names.federated.key());
    Result<Json> patched = ensureFinalizer(context, federated_object);
    if (patched &&
        objectResourceVersion(patched.value()) != objectResourceVersion(federated_object)) {
      // The reconcile goes on with the patched object, so the patch's echo needs no reconcile.
      patch.record(objectResourceVersion(federated_object), patched.value(), /*acted_on=*/true);
    }
    return patched;
  }();
  if (!finalized) {
    const std::string message = "Failed to ensure finalizer: " + finalized.error().describe();
    if (context.recorder) {
      context.recorder->event(referenceTo(federated_object), EventType::kWarning,
                              "EnsureFinalizerError", message);
    }
    return makeError(finalized.error().reason, message);
  }
  ObjectPtr federated_namespace;
  if (context.type.targetNamespaced()) {
    federated_namespace = context.host_informers.federatedNamespace(names.federated.ns);
  }
  return propagate(context, finalized.value(), names, federated_namespace.get());
}

// A kind a pod template references (in the core group, namespaced): its objects may follow
// their workloads.
bool mayFollowWorkloads(const SyncTypeInfo& type) {
  return type.target_type.group.empty() && type.targetNamespaced() &&
         referenceableKind(type.target_type.kind);
}

}  // namespace

ReconcileResult reconcileKey(SyncContext& context, const std::string& key,
                             const std::function<bool()>& synced) {
  if (!synced()) {
    return ReconcileStatus::kNotSynced;
  }
  const std::optional<ResolvedEventKey> names =
      resolveEventKey(key, context.type.target_is_namespace, context.type.kubefed_namespace);
  if (!names) {
    return ReconcileStatus::kOk;
  }
  const ObjectPtr federated = context.written_objects.newest(
      names->federated.key(), context.host_informers.federatedObject(names->federated.key()));
  if (!federated) {
    return names->possible_orphan ? releaseOrphans(context, names->target)
                                  : ReconcileResult(ReconcileStatus::kOk);
  }
  // KubeFed's reconcile_federated_resource_duration_seconds times only the reconciles of a
  // federated object that exists (not the cache and orphan checks above), so it is timed here;
  // the controller runtime times every reconcile and logs the slow ones.
  const SteadyTime start = context.clock.now();
  ReconcileResult result = reconcileFederated(context, *federated, *names);
  metrics::observeFederatedReconcile(context.clock.now() - start);
  // Someone else changed the object while one of our writes was in flight: its event was held
  // back (WrittenObjects::PendingWrite), so it is this reconcile that queues the next.
  if (context.written_objects.takeRequeue(names->federated.key()) && result &&
      result.value() == ReconcileStatus::kOk) {
    return ReconcileStatus::requeueAfter(Duration::zero());
  }
  return result;
}

SyncReconciler::SyncReconciler(SyncTypeInfo type, SyncControllerDeps deps,
                               std::unique_ptr<HostInformers> host, MemberInformers& members,
                               std::unique_ptr<OverridePolicies> policies)
    : name_(toLower(type.federated_type.kind)),
      deps_(std::move(deps)),
      executors_(memberIo(deps_.member_io), deps_.dispatch.per_cluster_concurrency, deps_.clock),
      versions_(*deps_.host,
                VersionManagerOptions{.namespaced = type.federated_type.namespaced(),
                                      .target_namespace = deps_.config.target_namespace,
                                      .target_kind = type.target_type.kind}),
      host_(std::move(host)),
      members_(members),
      policies_(std::move(policies)) {
  if (mayFollowWorkloads(type)) {
    followers_ = std::make_shared<WorkloadFollowers>(
        WorkloadFollowersOptions{.target_kind = type.target_type.kind,
                                 .target_namespace = deps_.config.target_namespace},
        deps_.host_informers, deps_.host, [this](const std::string& key) {
          const ObjectPtr object = host_->federatedObject(key);
          return object && followsModeOf(*object) == FollowsMode::kWorkloads;
        });
  }
  const std::string target_kind = type.target_type.kind;
  context_ = std::unique_ptr<SyncContext>(
      new SyncContext{.type = std::move(type),
                      .host = deps_.host,
                      .clusters = deps_.clusters,
                      .host_informers = *host_,
                      .member_informers = members_,
                      .versions = versions_,
                      .executors = executors_,
                      .recorder = deps_.recorder ? deps_.recorder(name_ + "-controller") : nullptr,
                      .clock = deps_.clock,
                      .operation_timeout = deps_.dispatch.operation_timeout,
                      .stopping = stopping_,
                      .override_policies = policies_.get(),
                      .workload_followers = followers_.get(),
                      .follower_directory = &followerDirectory()});
  if (followers_) {  // workloads look their followers up here, to be created after them
    directory_entry_ = followerDirectory().add(
        target_kind, [this](const std::string& key) { return host_->federatedObject(key); });
  }
  // A cluster that left takes its executor lane with it. Called on the registry writer's thread:
  // forget() cancels the cluster's queue but does not wait for its running operations.
  removal_listener_ = deps_.clusters.subscribe([this](const ClusterEvent& event) {
    if (event.change == ClusterChange::kRemoved) executors_.forget(event.cluster.name);
  });
  // A failure here is retried, and logged, by the first check that the caches are synced.
  version_loader_ = std::jthread([this] { (void)versions_.load(); });
}

SyncReconciler::~SyncReconciler() {
  cancel();
  // A list in progress ends within the client's request timeout.
  if (version_loader_.joinable()) version_loader_.join();
}

ReconcileResult SyncReconciler::reconcile(const std::string& key) {
  return reconcileKey(*context_, key, [this] { return synced(); });
}

void SyncReconciler::cancel() {
  if (stopping_.exchange(true)) return;
  if (directory_entry_) followerDirectory().remove(*directory_entry_);
  if (removal_listener_) deps_.clusters.unsubscribe(*removal_listener_);
  executors_.stop();  // cancels queued member operations, waits for running ones
}

UpdateFilter SyncReconciler::federatedUpdateFilter() {
  return [this](const Json& old_object, const Json& new_object) {
    // Asked first: recognising an echo also ends its record.
    return !context_->written_objects.isActedOnEcho(objectKey(new_object),
                                                    objectResourceVersion(new_object)) &&
           objectChanged(old_object, new_object);
  };
}

std::function<Duration(const std::string& key)> SyncReconciler::memberEventDelay(
    Duration retry_delay) {
  return [this, retry_delay](const std::string& key) {
    const std::optional<ResolvedEventKey> names =
        resolveEventKey(key, context_->type.target_is_namespace, context_->type.kubefed_namespace);
    if (!names) return retry_delay;
    const ObjectPtr federated = host_->federatedObject(names->federated.key());
    if (!federated) return retry_delay;
    Result<MemberPolicy> policy = resolveMemberPolicy(context_->type.policy_defaults, *federated);
    return !policy || policy.value().writesBack() ? retry_delay : Duration::zero();
  };
}

bool SyncReconciler::synced() {
  if (!host_->synced() || !members_.synced()) return false;
  if (policies_ && !policies_->synced()) return false;
  // The workload caches of followers are waited for by the passes over followers alone.
  Status loaded = versions_.load();
  if (!loaded) {
    spdlog::warn("{}: {}", name_, loaded.error().describe());
    return false;
  }
  return true;
}

}  // namespace kf::sync
