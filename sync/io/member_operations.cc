#include "sync/io/member_operations.h"

#include <spdlog/spdlog.h>

#include <cctype>

#include "apis/meta/field_errors.h"
#include "federation/metrics/kubefed_metrics.h"
#include "sync/io/drift_and_apply.h"
#include "sync/plan/desired_object.h"
#include "sync/plan/drift.h"
#include "sync/plan/managed_label.h"
#include "sync/plan/object_version.h"

namespace kf::sync {

namespace {

// One operation as KubeFed names it in events: "create" / "Creating" gives the reasons
// CreateInCluster and CreateInClusterFailed.
struct OperationName {
  const char* verb;        // "remove managed label from"
  const char* continuous;  // "Removing managed label from"
};

constexpr OperationName kCreate{"create", "Creating"};
constexpr OperationName kUpdate{"update", "Updating"};
constexpr OperationName kDelete{"delete", "Deleting"};
constexpr OperationName kRemoveLabel{"remove managed label from", "Removing managed label from"};

// strings.Title and spaces removed: "remove managed label from" -> "RemoveManagedLabelFrom".
std::string reasonStem(const char* verb) {
  std::string out;
  bool word_start = true;
  for (const char* c = verb; *c != '\0'; ++c) {
    if (*c == ' ') {
      word_start = true;
      continue;
    }
    out += word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(*c))) : *c;
    word_start = false;
  }
  return out;
}

// `<verb> <Kind> "<ns/name>" in cluster "<cluster>"`
std::string describeOperation(const MemberObjectContext& context, const char* verb,
                              const std::string& cluster) {
  return std::string(verb) + " " + context.target_type.kind + " " +
         meta::goQuote(context.target.key()) + " in cluster " + meta::goQuote(cluster);
}

void recordEvent(const MemberObjectContext& context, const OperationName& op,
                 const std::string& cluster) {
  const std::string message = describeOperation(context, op.continuous, cluster);
  if (!context.recorder || !context.federated) {
    spdlog::debug("{}", message);
    return;
  }
  context.recorder->event(referenceTo(*context.federated), EventType::kNormal,
                          reasonStem(op.verb) + "InCluster", message);
}

void recordError(const MemberObjectContext& context, const OperationName& op,
                 const std::string& cluster, const std::string& error) {
  const std::string message =
      "Failed to " + describeOperation(context, op.verb, cluster) + ": " + error;
  if (!context.recorder || !context.federated) {
    spdlog::warn("{}", message);
    return;
  }
  context.recorder->event(referenceTo(*context.federated), EventType::kWarning,
                          reasonStem(op.verb) + "InClusterFailed", message);
}

void recordOperationError(const MemberObjectContext& context, const OperationName& op,
                          OperationReport& report, PropagationStatus status,
                          const std::string& error) {
  recordError(context, op, report.cluster(), error);
  report.fail(status);
}

// The cluster's client, or ClientRetrievalFailed recorded.
std::shared_ptr<RestClient> clientFor(const MemberObjectContext& context, const OperationName& op,
                                      OperationReport& report) {
  Result<std::shared_ptr<RestClient>> client = context.client(report.cluster());
  if (!client || !client.value()) {
    const std::string why = client ? "no client" : client.error().describe();
    recordOperationError(context, op, report, PropagationStatus::kClientRetrievalFailed,
                         "Error retrieving client for cluster: " + why);
    return nullptr;
  }
  return client.value();
}

ResourceClient resourceClient(const MemberObjectContext& context, RestClient& client) {
  return ResourceClient(client, context.target_resource, context.target.ns);
}

// The managers of the controller's own writes in a member: its updates and its applies.
const std::vector<std::string>& ownManagers() {
  static const std::vector<std::string> managers = {kControllerUpdateManager, kApplyFieldManager};
  return managers;
}

void warnAboutDroppedTemplateFields(const MemberObjectContext& context, bool dropped_annotations,
                                    bool dropped_finalizers) {
  if (!context.recorder || !context.federated) {
    return;
  }
  const ObjectReference reference = referenceTo(*context.federated);
  if (dropped_annotations) {
    context.recorder->event(reference, EventType::kWarning,
                            std::string(kAnnotationsNotSupportedReason),
                            templateFieldNotSupportedMessage("annotations"));
  }
  if (dropped_finalizers) {
    context.recorder->event(reference, EventType::kWarning,
                            std::string(kFinalizersNotSupportedReason),
                            templateFieldNotSupportedMessage("finalizers"));
  }
}

// The object for the cluster, or the failure recorded and nullopt.
std::optional<Json> desiredFor(const MemberObjectContext& context, const OperationName& op,
                               const Json* cluster_object, OperationReport& report) {
  DesiredObject desired = desiredObjectForCluster(
      context.federatedFor(report.cluster()), context.target_type, report.cluster(), cluster_object,
      context.policyPatchesFor(report.cluster()));
  warnAboutDroppedTemplateFields(context, desired.dropped_annotations, desired.dropped_finalizers);
  if (!desired.ok()) {
    recordOperationError(context, op, report, desired.failure, desired.error);
    return std::nullopt;
  }
  return std::move(desired.object);
}

void update(const MemberObjectContext& context, RestClient& client, const Json& cached_object,
            OperationReport& report, bool adopting) {
  const SteadyTime start = context.clock->now();
  // The member object's status as found: an update that fails keeps it as the remote status (as
  // KubeFed does); a successful one replaces it with the status of the object written.
  report.sawObject(cached_object);
  UpdateDecision decision = decideUpdate(context, report.cluster(), cached_object);
  std::optional<Json> read;  // the member object as its API server returned it
  if (decision.needs_managed_fields) {
    Result<Json> got = resourceClient(context, client).get(context.target.name);
    if (!got) {
      recordOperationError(context, kUpdate, report, PropagationStatus::kUpdateFailed,
                           "reading the member object's field managers: " + got.error().describe());
      return;
    }
    read = std::move(got.value());
    report.sawObject(*read);
    decision = decideUpdate(context, report.cluster(), *read, /*has_managed_fields=*/true);
  }
  const Json& cluster_object = read ? *read : cached_object;
  warnAboutDroppedTemplateFields(context, decision.dropped_annotations,
                                 decision.dropped_finalizers);
  if (!decision.ok()) {
    recordOperationError(context, kUpdate, report, decision.failure, decision.error);
    return;
  }
  if (!decision.yielded.empty()) {
    reportFieldsOwnedElsewhere(context, report.cluster(), decision.yielded);
  }
  if (!decision.drift.empty()) {
    reportDrift(context, client, report.cluster(), decision.drift, read ? &*read : nullptr);
  }
  if (decision.record_member_version) {
    report.recordVersion(objectVersion(cluster_object));
  }
  if (!decision.write) {
    // Reported and left as it is (ReportOnly): its old version stays recorded, so that the next
    // pass finds it drifted still.
    if (!decision.drift.empty()) report.fail(PropagationStatus::kDrifted);
    return;
  }
  recordEvent(context, kUpdate, report.cluster());
  Result<Json> updated = decision.server_side
                             ? applyToMember(context, client, decision.desired)
                             : resourceClient(context, client).update(decision.desired);
  if (!updated) {
    recordOperationError(context, kUpdate, report, PropagationStatus::kUpdateFailed,
                         updated.error().describe());
    return;
  }
  report.markResourcesUpdated();
  report.recordVersion(objectVersion(updated.value()));
  report.sawObject(updated.value());
  if (adopting) {
    metrics::observeDispatch("update", context.clock->now() - start);
  }
}

bool isAlreadyExists(const MemberObjectContext& context, const ApiError& error) {
  // A Namespace that exists may be reported as a server timeout instead (KubeFed does the same).
  return kf::isAlreadyExists(error) ||
         (context.target_type.kind == "Namespace" && error.reason == Reason::kServerTimeout);
}

std::string recordedVersion(const MemberObjectContext& context, const std::string& cluster) {
  auto recorded = context.recorded_versions.find(cluster);
  return recorded == context.recorded_versions.end() ? "" : recorded->second;
}

// ServerSide (server_side_apply.h): the intent is what the federated object sets for the cluster,
// nothing retained from the member.
UpdateDecision decideApply(const MemberObjectContext& context, const std::string& cluster,
                           const Json& cluster_object, bool has_managed_fields) {
  UpdateDecision out;
  out.server_side = true;
  DesiredObject intent =
      desiredObjectForCluster(context.federatedFor(cluster), context.target_type, cluster, nullptr,
                              context.policyPatchesFor(cluster));
  out.dropped_annotations = intent.dropped_annotations;
  out.dropped_finalizers = intent.dropped_finalizers;
  if (!intent.ok()) {
    out.failure = intent.failure;
    out.error = std::move(intent.error);
    return out;
  }
  if (!context.version_error.empty()) {
    out.failure = PropagationStatus::kVersionRetrievalFailed;
    out.error = context.version_error;
    return out;
  }
  const std::string version = recordedVersion(context, cluster);
  const bool version_changed = version != objectVersion(cluster_object);
  const std::vector<FieldDifference> differences = differingFields(intent.object, cluster_object);
  if (differences.empty()) {
    // The member holds everything the controller would send: nothing to write, whoever changed
    // what else.
    out.record_member_version = version_changed;
    return out;
  }
  if (!has_managed_fields) {
    out.needs_managed_fields = true;
    return out;
  }
  out.yielded = fieldsOwnedElsewhere(differences, cluster_object, ownManagers());
  out.desired = applyPatch(intent.object, out.yielded);
  std::vector<FieldDifference> relevant =
      differingFields(out.desired, cluster_object, context.policy.ignored);
  const MemberUpdatePlan plan =
      planMemberUpdate(context.policy, MemberState{.changed = true,
                                                   .version_recorded = !version.empty(),
                                                   .differs = !relevant.empty()});
  out.write = plan.write;
  out.record_member_version = plan.record_member_version;
  // Differences of a version recorded under the current hashes are drift; without one, a
  // propagation.
  if (plan.report && !version.empty()) out.drift = std::move(relevant);
  return out;
}

// A create in a cluster where this object has a recorded version: the cache that lacks it most
// likely has not shown our own write yet (a reconcile that follows the one that created it by
// milliseconds, queued by its own echo or a user's edit, while the member's watch lags), more
// rarely someone deleted it. KubeFed creates, is refused (409 AlreadyExists), reads and adopts;
// reading first reaches the same object without the refused write and its Warning event. Gone
// (NotFound), unreadable or not labelled ours: the create goes on as in KubeFed.
bool updatedOurOwnObject(const MemberObjectContext& context, RestClient& client,
                         OperationReport& report) {
  if (!context.recorded_versions.contains(report.cluster())) return false;
  Result<Json> existing = resourceClient(context, client).get(context.target.name);
  if (!existing || !hasManagedLabel(existing.value())) return false;
  report.continueAs(OperationKind::kUpdate);
  update(context, client, existing.value(), report, /*adopting=*/false);
  return true;
}

}  // namespace

UpdateDecision decideUpdate(const MemberObjectContext& context, const std::string& cluster,
                            const Json& cluster_object, bool has_managed_fields) {
  UpdateDecision out;
  if (isExplicitlyUnmanaged(cluster_object)) {
    out.failure = PropagationStatus::kManagedLabelFalse;
    out.error = managedLabelFalseMessage();
    return out;
  }
  if (context.policy.serverSide()) {
    return decideApply(context, cluster, cluster_object, has_managed_fields);
  }
  DesiredObject desired =
      desiredObjectForCluster(context.federatedFor(cluster), context.target_type, cluster,
                              &cluster_object, context.policyPatchesFor(cluster));
  out.dropped_annotations = desired.dropped_annotations;
  out.dropped_finalizers = desired.dropped_finalizers;
  if (!desired.ok()) {
    out.failure = desired.failure;
    out.error = std::move(desired.error);
    return out;
  }
  out.desired = std::move(desired.object);
  if (!context.version_error.empty()) {
    out.failure = PropagationStatus::kVersionRetrievalFailed;
    out.error = context.version_error;
    return out;
  }
  const std::string version = recordedVersion(context, cluster);
  out.write = objectNeedsUpdate(out.desired, cluster_object, version);
  if (context.policy.isKubeFeds() || !out.write) {
    return out;  // KubeFed's decision; no field is compared
  }
  std::vector<FieldDifference> differences =
      version.empty() ? std::vector<FieldDifference>()
                      : differingFields(out.desired, cluster_object, context.policy.ignored);
  const MemberUpdatePlan plan =
      planMemberUpdate(context.policy, MemberState{.changed = true,
                                                   .version_recorded = !version.empty(),
                                                   .differs = !differences.empty()});
  out.write = plan.write;
  out.record_member_version = plan.record_member_version;
  if (plan.report) out.drift = std::move(differences);
  return out;
}

bool adoptsExisting(const MemberObjectContext& context, const Json& existing) {
  return !context.skip_adopting || context.isHostNamespace(existing);
}

bool MemberObjectContext::isHostNamespace(const Json& cluster_object) const {
  return target_type.kind == "Namespace" && !host_namespace_uid.empty() &&
         objectUid(cluster_object) == host_namespace_uid;
}

const std::vector<PolicyPatch>* MemberObjectContext::policyPatchesFor(
    const std::string& cluster) const {
  if (!policy_patches) return nullptr;
  const std::vector<PolicyPatch>& patches = policy_patches->forCluster(cluster);
  return patches.empty() ? nullptr : &patches;
}

const Json& MemberObjectContext::federatedFor(const std::string& cluster) const {
  const auto it = federated_for_cluster.find(cluster);
  return it != federated_for_cluster.end() ? *it->second : *federated;
}

std::string managedLabelFalseMessage() {
  return "Unable to manage the object which has label " + std::string(kManagedLabel) + ": " +
         std::string(kUnmanagedLabelValue);
}

void recordClusterError(const MemberObjectContext& context, PropagationStatus status,
                        const std::string& message) {
  if (!context.recorder || !context.federated) {
    return;
  }
  context.recorder->event(referenceTo(*context.federated), EventType::kWarning,
                          std::string(propagationStatusName(status)), message);
}

void createInCluster(const ContextPtr& context, OperationReport& report) {
  const SteadyTime start = context->clock->now();
  std::shared_ptr<RestClient> client = clientFor(*context, kCreate, report);
  if (!client || updatedOurOwnObject(*context, *client, report)) {
    return;
  }
  recordEvent(*context, kCreate, report.cluster());
  std::optional<Json> desired = desiredFor(*context, kCreate, nullptr, report);
  if (!desired) {
    return;
  }
  ResourceClient objects = resourceClient(*context, *client);
  Result<Json> created = objects.create(*desired);
  if (created) {
    report.recordVersion(objectVersion(created.value()));
    report.sawObject(created.value());
    metrics::observeDispatch("create", context->clock->now() - start);
    return;
  }
  if (!isAlreadyExists(*context, created.error())) {
    recordOperationError(*context, kCreate, report, PropagationStatus::kCreationFailed,
                         created.error().describe());
    return;
  }
  Result<Json> existing = objects.get(context->target.name);
  if (!existing) {
    recordOperationError(
        *context, kCreate, report, PropagationStatus::kRetrievalFailed,
        "failed to retrieve object potentially requiring adoption: " + existing.error().describe());
    return;
  }
  if (!adoptsExisting(*context, existing.value())) {
    recordOperationError(*context, kCreate, report, PropagationStatus::kAlreadyExists,
                         "Resource pre-exist in cluster");
    return;
  }
  recordError(*context, kCreate, report.cluster(),
              "An update will be attempted instead of a creation due to an existing resource");
  report.continueAs(OperationKind::kUpdate);
  update(*context, *client, existing.value(), report, /*adopting=*/true);
}

void updateInCluster(const ContextPtr& context, const Json& cluster_object,
                     OperationReport& report) {
  std::shared_ptr<RestClient> client = clientFor(*context, kUpdate, report);
  if (!client) {
    return;
  }
  update(*context, *client, cluster_object, report, /*adopting=*/false);
}

void deleteInCluster(const ContextPtr& context, const DeleteOptions& options,
                     OperationReport& report) {
  const SteadyTime start = context->clock->now();
  std::shared_ptr<RestClient> client = clientFor(*context, kDelete, report);
  if (!client) {
    return;
  }
  recordEvent(*context, kDelete, report.cluster());
  Status removed = resourceClient(*context, *client).remove(context->target.name, options);
  if (!removed && !isNotFound(removed.error())) {
    recordOperationError(*context, kDelete, report, PropagationStatus::kDeletionFailed,
                         removed.error().describe());
    return;
  }
  metrics::observeDispatch("delete", context->clock->now() - start);
}

void removeManagedLabelInCluster(const ContextPtr& context, OperationReport& report) {
  std::shared_ptr<RestClient> client = clientFor(*context, kRemoveLabel, report);
  if (!client) {
    return;
  }
  recordEvent(*context, kRemoveLabel, report.cluster());
  Result<Json> patched =
      resourceClient(*context, *client)
          .patch(context->target.name, PatchType::kMerge, removeManagedLabelMergePatch());
  if (!patched && !isNotFound(patched.error())) {
    recordOperationError(*context, kRemoveLabel, report, PropagationStatus::kLabelRemovalFailed,
                         patched.error().describe());
  }
}

}  // namespace kf::sync
