#include "sync/controller/rollout_pass.h"

#include <utility>

#include "apis/core/workload_kind.h"
#include "apis/rollout/rollout_strategy.h"
#include "federation/client/resource_client.h"
#include "sync/plan/propagated_versions.h"
#include "sync/plan/rollout_record.h"

namespace kf::sync {

namespace {

GroupVersionResource rolloutResource(std::string_view plural) {
  return {std::string(rollout::kGroup), std::string(rollout::kVersion), std::string(plural), true};
}

std::string strategyNameOf(const Json& federated_object) {
  const std::optional<StringMap> annotations = objectAnnotations(federated_object);
  if (!annotations) return "";
  const auto it = annotations->find(std::string(rollout::kStrategyAnnotation));
  return it != annotations->end() ? it->second : "";
}

// Where the object's strategy and record live: its namespace, or KubeFed's for a cluster-scoped
// federated type.
std::string rolloutNamespace(const SyncContext& context, const Json& federated_object) {
  const std::string ns = objectNamespace(federated_object);
  return ns.empty() ? context.type.kubefed_namespace : ns;
}

ApiError warned(SyncContext& context, const Json& federated_object, const std::string& reason,
                const std::string& message) {
  if (context.recorder) {
    context.recorder->event(referenceTo(federated_object), EventType::kWarning, reason, message);
  }
  return makeError(Reason::kInvalid, message);
}

Json fieldOr(const Json& object, std::initializer_list<std::string_view> path) {
  const Json* value = nestedField(object, path);
  return value != nullptr ? *value : Json();
}

std::vector<RolloutCluster> rolloutClusters(const SyncContext& context,
                                            const std::vector<ClusterSnapshot>& clusters,
                                            const SyncObservation& observed,
                                            const RunRecord& record) {
  const std::optional<core::WorkloadKind> kind =
      core::builtInWorkloadKind(context.type.target_type.group, context.type.target_type.kind);
  std::map<std::string, const ClusterObservation*> seen;
  for (const ClusterObservation& cluster : observed.clusters) seen[cluster.name] = &cluster;
  std::vector<RolloutCluster> out;
  for (const ClusterSnapshot& cluster : clusters) {
    // A cluster that is not ready gets nothing this pass anyway: the run goes on without it.
    if (!cluster.ready || !observed.placement.contains(cluster.name)) continue;
    RolloutCluster entry{.name = cluster.name, .labels = cluster.labels};
    const auto held = record.clusters.find(cluster.name);
    const ClusterObservation* observation = seen[cluster.name];
    if (held != record.clusters.end() && observation != nullptr) {
      entry.health = clusterHealth(kind, observation->object.get(), held->second.version);
    }
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

Result<std::optional<RolloutPass>> RolloutPass::begin(SyncContext& context,
                                                      const Json& federated_object,
                                                      const VersionHashes& hashes,
                                                      const std::vector<ClusterSnapshot>& clusters,
                                                      const SyncObservation& observed) {
  RolloutPass pass;
  pass.strategy_name_ = strategyNameOf(federated_object);
  if (pass.strategy_name_.empty()) return std::optional<RolloutPass>();
  const std::string ns = rolloutNamespace(context, federated_object);
  const std::string where = "RolloutStrategy \"" + ns + "/" + pass.strategy_name_ + "\"";
  if (!hashes.ok()) {
    return warned(context, federated_object, "RolloutFailed",
                  "cannot stage the rollout without the template's hash: " + hashes.error);
  }
  Result<Json> strategy_object =
      ResourceClient(*context.host, rolloutResource(rollout::kStrategyResource), ns)
          .get(pass.strategy_name_);
  if (!strategy_object) {
    return warned(context, federated_object, "RolloutStrategyNotFound",
                  where + " named by annotation " + std::string(rollout::kStrategyAnnotation) +
                      " cannot be read (" + strategy_object.error().describe() +
                      "); the object is not propagated until it can (create it, or remove the "
                      "annotation)");
  }
  Result<rollout::RolloutStrategySpec> strategy =
      rollout::rolloutStrategyOf(strategy_object.value());
  if (!strategy) {
    return warned(context, federated_object, "RolloutStrategyInvalid",
                  strategy.error().message + "; the object is not propagated until it is fixed");
  }
  const std::size_t stage_count = strategy.value().stages.size();
  const std::string target_kind = context.type.target_type.kind;
  pass.run_name_ = propagatedVersionName(target_kind, {ns, objectName(federated_object)});
  pass.run_name_.ns = ns;
  Result<Json> existing = ResourceClient(*context.host, rolloutResource(kRolloutRunResource), ns)
                              .get(pass.run_name_.name);
  if (!existing && !isNotFound(existing.error())) return existing.error();
  std::optional<RunRecord> last;
  Json last_template, last_previous;
  if (existing) {
    Result<RunRecord> read =
        runRecordFromJson(fieldOr(existing.value(), {"status"}), meta::FieldPath("status"));
    if (!read) {
      return warned(context, federated_object, "RolloutFailed",
                    "RolloutRun \"" + pass.run_name_.key() + "\": " + read.error().message);
    }
    last = std::move(read.value());
    last_template = fieldOr(existing.value(), {"spec", "template"});
    last_previous = fieldOr(existing.value(), {"spec", "previousTemplate"});
    pass.existing_run_ = std::move(existing.value());
  }
  pass.template_ = fieldOr(federated_object, {"spec", "template"});
  const RunRecord run = runFor(last ? &*last : nullptr, hashes.template_version, stage_count);
  if (last && last->template_hash == run.template_hash) {
    pass.previous_template_ = last_previous;
  } else if (last) {
    const bool complete = last->failure.empty() && last->stage > stage_count;
    pass.previous_template_ = complete ? last_template : last_previous;
  }
  const RolloutIntent intent = rolloutIntentOf(federated_object, run.template_hash);
  pass.decision_ =
      decideRollout(strategy.value(), rolloutClusters(context, clusters, observed, run), run,
                    intent, context.clock.wallNow());
  return std::optional<RolloutPass>(std::move(pass));
}

std::vector<ClusterStep> RolloutPass::adjust(std::vector<ClusterStep> steps,
                                             MemberObjectContext& members) const {
  ObjectPtr previous;
  if (!previous_template_.is_null()) {
    Json object = *members.federated;
    object["spec"]["template"] = previous_template_;
    previous = std::make_shared<const Json>(std::move(object));
  }
  for (ClusterStep& step : steps) {
    if (!step.operation) continue;
    const bool keep = decision_.keep_previous.contains(step.cluster);
    const bool roll_back = decision_.roll_back.contains(step.cluster);
    if (*step.operation == OperationKind::kUpdate && keep) {
      step.operation.reset();
      step.status = PropagationStatus::kOk;
      step.reason = "kept on the previous template by the staged rollout";
      continue;
    }
    if ((keep || roll_back) && previous &&
        (*step.operation == OperationKind::kCreate || *step.operation == OperationKind::kUpdate)) {
      members.federated_for_cluster[step.cluster] = previous;
      // Not a version of the current template: the update is decided without one, so it writes.
      members.recorded_versions.erase(step.cluster);
    }
  }
  return steps;
}

Json RolloutPass::summary() const {
  Json out = {{"strategy", strategy_name_}, {"phase", rolloutPhaseName(decision_.phase)}};
  meta::putIfNotEmpty(out, "stage", decision_.stage_name);
  meta::putIfNotEmpty(out, "message", decision_.message);
  return out;
}

bool RolloutPass::offTheNewTemplate(const std::string& cluster) const {
  return decision_.keep_previous.contains(cluster) || decision_.roll_back.contains(cluster);
}

Result<std::optional<Duration>> RolloutPass::finish(
    SyncContext& context, const Json& federated_object,
    const std::map<std::string, std::string>& written) {
  RunRecord& record = decision_.record;
  std::map<std::string, std::string> got_new, got_previous;
  for (const auto& [cluster, version] : written) {
    (offTheNewTemplate(cluster) ? got_previous : got_new)[cluster] = version;
  }
  const WallTime now = context.clock.wallNow();
  recordHeld(record, got_new, record.template_hash, now);
  recordHeld(record, got_previous, record.previous_hash, now);

  Json status = runRecordToJson(record);
  status["phase"] = rolloutPhaseName(decision_.phase);
  meta::putIfNotEmpty(status, "currentStage", decision_.stage_name);
  meta::putIfNotEmpty(status, "message", decision_.message);
  Json spec = {{"strategy", strategy_name_}, {"template", template_}};
  if (!previous_template_.is_null()) spec["previousTemplate"] = previous_template_;
  Json old_status = existing_run_ ? fieldOr(*existing_run_, {"status"}) : Json::object();
  if (!old_status.is_object()) old_status = Json::object();
  const bool moved = old_status.value("phase", "") != status["phase"] ||
                     old_status.value("currentStage", "") != status.value("currentStage", "") ||
                     old_status.value("message", "") != status.value("message", "");
  if (!existing_run_ || old_status != status || fieldOr(*existing_run_, {"spec"}) != spec) {
    ResourceClient runs(*context.host, rolloutResource(kRolloutRunResource), run_name_.ns);
    Json object =
        existing_run_
            ? *existing_run_
            : Json{{"apiVersion",
                    std::string(rollout::kGroup) + "/" + std::string(rollout::kVersion)},
                   {"kind", std::string(kRolloutRunKind)},
                   {"metadata",
                    {{"name", run_name_.name},
                     {"namespace", run_name_.ns},
                     {"ownerReferences",
                      Json::array({propagatedVersionOwnerReference(federated_object)})}}}};
    object["spec"] = std::move(spec);
    object["status"] = std::move(status);
    Result<Json> stored = existing_run_ ? runs.update(object) : runs.create(object);
    if (!stored) {
      ApiError error = stored.error();
      error.message = "writing RolloutRun \"" + run_name_.key() + "\": " + error.message;
      return error;
    }
  }
  if (moved && context.recorder) {
    const bool bad =
        decision_.phase == RolloutPhase::kFailed || decision_.phase == RolloutPhase::kRolledBack;
    context.recorder->event(
        referenceTo(federated_object), bad ? EventType::kWarning : EventType::kNormal,
        std::string("Rollout") + rolloutPhaseName(decision_.phase), decision_.message);
  }
  return decision_.recheck_after;
}

}  // namespace kf::sync
