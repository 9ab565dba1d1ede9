#include "sync/plan/rollout_plan.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "apis/core/workload_observation.h"
#include "apis/meta/duration.h"

namespace kf::sync {

namespace {

using rollout::RolloutStrategySpec;
using std::chrono::nanoseconds;

// The clusters of each stage, by name (the implicit last stage at index stages.size()).
std::vector<std::vector<const RolloutCluster*>> clustersByStage(
    const RolloutStrategySpec& strategy, const std::vector<RolloutCluster>& clusters) {
  std::vector<std::vector<const RolloutCluster*>> out(strategy.stages.size() + 1);
  const std::map<std::string, std::size_t> stages = stageOfClusters(strategy, clusters);
  for (const RolloutCluster& cluster : clusters) out[stages.at(cluster.name)].push_back(&cluster);
  for (auto& stage : out) {
    std::sort(stage.begin(), stage.end(),
              [](const RolloutCluster* a, const RolloutCluster* b) { return a->name < b->name; });
  }
  return out;
}

std::string stageName(const RolloutStrategySpec& strategy, std::size_t stage) {
  return stage < strategy.stages.size() ? strategy.stages[stage].name : "(unstaged clusters)";
}

bool holdsNew(const RunRecord& record, const std::string& cluster) {
  const auto it = record.clusters.find(cluster);
  return it != record.clusters.end() && it->second.hash == record.template_hash;
}

void keepMin(std::optional<nanoseconds>& current, nanoseconds candidate) {
  candidate = std::max(candidate, nanoseconds{0});
  if (!current || candidate < *current) current = candidate;
}

// The first cluster of `stage` that failed: reported failure, or not healthy by the deadline.
std::optional<std::string> failureIn(const RolloutStrategySpec& strategy,
                                     const std::vector<const RolloutCluster*>& stage,
                                     const RunRecord& record, WallTime now,
                                     RolloutDecision& decision) {
  for (const RolloutCluster* cluster : stage) {
    if (!holdsNew(record, cluster->name) || cluster->health == ClusterHealth::kHealthy) continue;
    if (cluster->health == ClusterHealth::kFailed) {
      return "cluster " + cluster->name + " reports the workload failed";
    }
    const WallTime deadline =
        record.clusters.at(cluster->name).since +
        std::chrono::duration_cast<WallTime::duration>(strategy.progress_deadline);
    if (now >= deadline) {
      return "cluster " + cluster->name + " is not rolled out and healthy " +
             meta::formatGoDuration(strategy.progress_deadline) + " after its update";
    }
    keepMin(decision.recheck_after, deadline - now);
  }
  return std::nullopt;
}

// Admits clusters of the current stage up to its concurrency; true when all of it is healthy.
bool advanceWithinStage(const rollout::Stage* stage,
                        const std::vector<const RolloutCluster*>& clusters, const RunRecord& record,
                        bool paused, RolloutDecision& decision) {
  std::int64_t in_flight = 0;
  bool all_healthy = true;
  for (const RolloutCluster* cluster : clusters) {
    if (!holdsNew(record, cluster->name)) {
      all_healthy = false;
    } else if (cluster->health != ClusterHealth::kHealthy) {
      all_healthy = false;
      ++in_flight;
    }
  }
  const std::int64_t limit = stage != nullptr && stage->max_concurrency
                                 ? *stage->max_concurrency
                                 : static_cast<std::int64_t>(clusters.size());
  for (const RolloutCluster* cluster : clusters) {
    if (holdsNew(record, cluster->name)) {
      decision.send_new.insert(cluster->name);
    } else if (!paused && in_flight < limit) {
      decision.send_new.insert(cluster->name);
      ++in_flight;
    } else {
      decision.keep_previous.insert(cluster->name);
    }
  }
  return all_healthy;
}

void finishFailed(const RolloutStrategySpec& strategy, const std::vector<RolloutCluster>& clusters,
                  RolloutDecision& decision) {
  decision.send_new.clear();
  decision.keep_previous.clear();
  decision.recheck_after.reset();
  RunRecord& record = decision.record;
  const bool roll_back = strategy.on_failure == rollout::OnFailure::kRollback || record.rolled_back;
  for (const RolloutCluster& cluster : clusters) {
    if (!holdsNew(record, cluster.name)) {
      decision.keep_previous.insert(cluster.name);
    } else if (roll_back) {
      decision.roll_back.insert(cluster.name);
    } else {
      decision.send_new.insert(cluster.name);
    }
  }
  record.rolled_back = roll_back;
  decision.phase = roll_back ? RolloutPhase::kRolledBack : RolloutPhase::kFailed;
  decision.message = record.failure;
}

// Gates before stage `index` starts: a pause, an approval. Returns the phase that holds it.
std::optional<RolloutPhase> startGate(const RolloutStrategySpec& strategy, std::size_t index,
                                      const RolloutIntent& intent, RolloutDecision& decision) {
  const std::string name = stageName(strategy, index);
  if (intent.paused) {
    decision.message = "paused before stage " + name + " (kubefedctl rollout resume)";
    return RolloutPhase::kPaused;
  }
  if (index < strategy.stages.size() && strategy.stages[index].require_approval &&
      !intent.approved_stages.contains(name)) {
    decision.message = "stage " + name + " waits for approval (kubefedctl rollout approve)";
    return RolloutPhase::kWaitingForApproval;
  }
  return std::nullopt;
}

}  // namespace

const char* rolloutPhaseName(RolloutPhase phase) {
  switch (phase) {
    case RolloutPhase::kProgressing:
      return "Progressing";
    case RolloutPhase::kWaitingForSoak:
      return "WaitingForSoak";
    case RolloutPhase::kWaitingForApproval:
      return "WaitingForApproval";
    case RolloutPhase::kPaused:
      return "Paused";
    case RolloutPhase::kFailed:
      return "Failed";
    case RolloutPhase::kRolledBack:
      return "RolledBack";
    case RolloutPhase::kComplete:
      break;
  }
  return "Complete";
}

std::map<std::string, std::size_t> stageOfClusters(const RolloutStrategySpec& strategy,
                                                   const std::vector<RolloutCluster>& clusters) {
  std::vector<meta::CompiledLabelSelector> selectors;
  for (const rollout::Stage& stage : strategy.stages) {
    // Validated when the strategy was read; one that does not compile selects nothing.
    Result<meta::CompiledLabelSelector> compiled =
        meta::compileLabelSelector(stage.cluster_selector, meta::FieldPath("clusterSelector"));
    selectors.push_back(
        compiled ? std::move(compiled.value())
                 : meta::CompiledLabelSelector{{{"", meta::SelectorOperator::kExists, {}}}});
  }
  std::map<std::string, std::size_t> out;
  for (const RolloutCluster& cluster : clusters) {
    std::size_t stage = 0;
    while (stage < selectors.size() && !selectors[stage].matches(cluster.labels)) ++stage;
    out[cluster.name] = stage;
  }
  return out;
}

RolloutDecision decideRollout(const RolloutStrategySpec& strategy,
                              const std::vector<RolloutCluster>& clusters, const RunRecord& record,
                              const RolloutIntent& intent, WallTime now) {
  RolloutDecision decision;
  decision.record = record;
  RunRecord& next = decision.record;
  if (!next.failure.empty()) {
    finishFailed(strategy, clusters, decision);
    return decision;
  }
  const auto stages = clustersByStage(strategy, clusters);
  const std::size_t last = stages.size() - 1;  // the implicit stage
  std::size_t index = std::min(next.stage, last + 1);
  // Stages already passed: a cluster there (a join, or one that was unready) gets the new one.
  for (std::size_t passed = 0; passed < index; ++passed) {
    for (const RolloutCluster* cluster : stages[passed]) decision.send_new.insert(cluster->name);
  }
  while (index <= last) {
    const rollout::Stage* stage =
        index < strategy.stages.size() ? &strategy.stages[index] : nullptr;
    decision.stage_name = stageName(strategy, index);
    const bool started =
        std::any_of(stages[index].begin(), stages[index].end(),
                    [&](const RolloutCluster* c) { return holdsNew(next, c->name); });
    if (!started && !stages[index].empty()) {
      if (auto held = startGate(strategy, index, intent, decision)) {
        decision.phase = *held;
        for (const RolloutCluster* cluster : stages[index]) {
          decision.keep_previous.insert(cluster->name);
        }
        break;
      }
    }
    if (auto failure = failureIn(strategy, stages[index], next, now, decision)) {
      next.failure = "stage " + decision.stage_name + ": " + *failure;
      finishFailed(strategy, clusters, decision);
      return decision;
    }
    if (!advanceWithinStage(stage, stages[index], next, intent.paused, decision)) {
      decision.phase = intent.paused ? RolloutPhase::kPaused : RolloutPhase::kProgressing;
      decision.message = "stage " + decision.stage_name + " is rolling out";
      next.stage_healthy_since.reset();
      break;
    }
    const nanoseconds soak = stage != nullptr ? stage->soak_time : nanoseconds{0};
    if (!next.stage_healthy_since) next.stage_healthy_since = now;
    const WallTime soaked =
        *next.stage_healthy_since + std::chrono::duration_cast<WallTime::duration>(soak);
    if (now < soaked) {
      decision.phase = RolloutPhase::kWaitingForSoak;
      decision.message = "stage " + decision.stage_name + " is healthy; soaking for " +
                         meta::formatGoDuration(soak);
      keepMin(decision.recheck_after, soaked - now);
      break;
    }
    if (intent.paused && index < last) {
      decision.phase = RolloutPhase::kPaused;
      decision.message =
          "paused after stage " + decision.stage_name + " (kubefedctl rollout resume)";
      break;
    }
    ++index;
    next.stage = index;
    next.stage_healthy_since.reset();
  }
  if (index > last) {
    next.stage = last + 1;
    decision.phase = RolloutPhase::kComplete;
    decision.stage_name.clear();
    decision.message = "every stage is rolled out";
    decision.recheck_after.reset();
    return decision;
  }
  for (std::size_t later = index + 1; later <= last; ++later) {
    for (const RolloutCluster* cluster : stages[later])
      decision.keep_previous.insert(cluster->name);
  }
  return decision;
}

RunRecord runFor(const RunRecord* last, const std::string& template_hash, std::size_t stage_count) {
  if (last != nullptr && last->template_hash == template_hash) return *last;
  RunRecord run;
  run.template_hash = template_hash;
  if (last == nullptr) {
    run.stage = stage_count + 1;  // nothing to stage: complete
    return run;
  }
  const bool last_complete = last->failure.empty() && last->stage > stage_count;
  run.previous_hash = last_complete ? last->template_hash : last->previous_hash;
  run.clusters = last->clusters;
  return run;
}

void recordHeld(RunRecord& record, const std::map<std::string, std::string>& written,
                const std::string& hash, WallTime now) {
  for (const auto& [cluster, version] : written) {
    auto it = record.clusters.find(cluster);
    if (it != record.clusters.end() && it->second.hash == hash) continue;
    record.clusters[cluster] = HeldTemplate{hash, now, version};
  }
}

bool cacheCaughtUp(const Json& cached_object, const std::string& held_version) {
  constexpr std::string_view kGeneration = "gen:";
  if (held_version.rfind(kGeneration, 0) != 0) return true;
  std::int64_t written = 0;
  const char* begin = held_version.data() + kGeneration.size();
  const char* end = held_version.data() + held_version.size();
  if (std::from_chars(begin, end, written).ec != std::errc()) return true;
  return objectGeneration(cached_object) >= written;
}

RolloutIntent rolloutIntentOf(const Json& federated_object, const std::string& template_hash) {
  RolloutIntent intent;
  const std::optional<StringMap> annotations = objectAnnotations(federated_object);
  if (!annotations) return intent;
  const auto paused = annotations->find(kRolloutPausedAnnotation);
  intent.paused = paused != annotations->end() && paused->second == "true";
  const auto approved = annotations->find(kRolloutApprovedAnnotation);
  if (approved == annotations->end()) return intent;
  std::string_view rest = approved->second;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view entry = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const std::size_t at = entry.rfind('@');
    if (at != std::string_view::npos && at > 0 && entry.substr(at + 1) == template_hash) {
      intent.approved_stages.emplace(entry.substr(0, at));
    }
  }
  return intent;
}

ClusterHealth clusterHealth(const std::optional<core::WorkloadKind>& kind,
                            const Json* cached_object, const std::string& held_version) {
  if (cached_object == nullptr || !cacheCaughtUp(*cached_object, held_version)) {
    return ClusterHealth::kUpdating;
  }
  if (!kind) return ClusterHealth::kHealthy;
  const core::ClusterWorkload observed = core::observeWorkload(*kind, "", *cached_object);
  if (observed.rolled_out) return ClusterHealth::kHealthy;
  return observed.failed ? ClusterHealth::kFailed : ClusterHealth::kUpdating;
}

}  // namespace kf::sync
