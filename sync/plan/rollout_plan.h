#pragma once
// The staged rollout's decisions (beyond KubeFed, opt-in with a RolloutStrategy): given the
// strategy, the placed clusters with their labels and workload health, the run's record (which
// template each cluster holds, the current stage, when it became healthy, a failure), the user's
// pause and approvals, and the time, which clusters get the new template now, which keep the one
// they hold, which get the previous one back, and the run's phase. Pure: the caller reads and
// writes the record and the members.
//
// Semantics:
//   * a cluster is in the first stage whose clusterSelector matches its labels; clusters no
//     stage matches form an implicit last stage (they are never left behind, nor go first);
//   * stages before the current one get the new template (a cluster that joins such a stage gets
//     it at once); stages after it keep what they hold (a cluster that joins there is created with
//     the previous template); clusters that left are simply not there;
//   * in the current stage at most maxConcurrency clusters are updated and not yet healthy at a
//     time; the stage passes when every cluster of it holds the new template and is healthy, and
//     stayed so for soakTime; a stage with requireApproval starts only once approved; an empty
//     stage passes at once (nothing to wait for or approve);
//   * a cluster that reports failure, or is not healthy progressDeadline after it got the new
//     template, fails the run: onFailure Pause stops it where it is (the clusters that hold the
//     new template keep it), Rollback also sends the previous template back to them. A failed
//     run stays so until the template changes again (a fix, or `kubefedctl rollout undo`);
//   * a user pause stops new clusters from being updated and stages from passing.

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "apis/core/workload_kind.h"
#include "apis/meta/object.h"
#include "apis/rollout/rollout_strategy.h"

namespace kf::sync {

using WallTime = std::chrono::system_clock::time_point;

enum class ClusterHealth {
  kUpdating,  // not (yet) rolled out
  kHealthy,   // rolled out: the workload status says so, or the object exists (other kinds)
  kFailed,    // will not get there by waiting (a failed Job, a Deployment past its deadline)
};

struct RolloutCluster {
  std::string name;
  StringMap labels;
  // Of the member object as it is now; only read for clusters that hold the new template.
  ClusterHealth health = ClusterHealth::kUpdating;
};

// Which template one cluster holds, since when, and the version of the object then written.
struct HeldTemplate {
  std::string hash;
  WallTime since;
  std::string version;  // objectVersion() of the object written ("" when unknown)

  bool operator==(const HeldTemplate&) const = default;
};

// What a run remembers between passes (and across restarts: the caller persists it).
struct RunRecord {
  std::string template_hash;  // the template being rolled out
  std::string previous_hash;  // the template later stages keep; "" for a first rollout
  std::map<std::string, HeldTemplate> clusters;
  std::size_t stage = 0;  // index of the current stage; == stage count when complete
  std::optional<WallTime> stage_healthy_since;
  std::string failure;  // why the run failed; "" while it has not
  bool rolled_back = false;

  bool operator==(const RunRecord&) const = default;
};

// The user's say, from annotations on the federated object (what `kubefedctl rollout pause`,
// `resume` and `approve` write): changing them is a change of the object, which queues a pass.
inline constexpr char kRolloutPausedAnnotation[] = "kubefed-cpp.io/rollout-paused";  // "true"
// Comma-separated "<stage>@<template hash>": an approval counts for that run's template only, so
// that it never lets the next change through unseen.
inline constexpr char kRolloutApprovedAnnotation[] = "kubefed-cpp.io/rollout-approved";

struct RolloutIntent {
  bool paused = false;
  std::set<std::string> approved_stages;  // for the current run

  bool operator==(const RolloutIntent&) const = default;
};

// The intent `federated_object`'s annotations state for the run of `template_hash`.
RolloutIntent rolloutIntentOf(const Json& federated_object, const std::string& template_hash);

// How healthy a cluster's member object is for the rollout: kUpdating until the cache shows the
// object the run wrote there (`held_version`, see cacheCaughtUp); then, for a workload kind, its
// rolled-out observation (failed when it reports failure) and, for any other kind, healthy.
ClusterHealth clusterHealth(const std::optional<core::WorkloadKind>& kind,
                            const Json* cached_object, const std::string& held_version);

enum class RolloutPhase {
  kProgressing,
  kWaitingForSoak,
  kWaitingForApproval,
  kPaused,
  kFailed,
  kRolledBack,
  kComplete,
};
const char* rolloutPhaseName(RolloutPhase phase);

struct RolloutDecision {
  // Propagated as without a strategy (created, updated, drift corrected) with the new template.
  std::set<std::string> send_new;
  // Left as they are; created with the previous template when they have no object.
  std::set<std::string> keep_previous;
  // They hold the new template: the previous one is written back.
  std::set<std::string> roll_back;
  RunRecord record;  // the record after this decision: stage, soak start, failure
  RolloutPhase phase = RolloutPhase::kProgressing;
  std::string stage_name;  // the current stage ("" when complete)
  std::string message;     // for the status and events: what the run waits for, or why it failed
  // When to look again although nothing changes: a soak ending or a deadline passing.
  std::optional<std::chrono::nanoseconds> recheck_after;
};

// The stage index of each cluster (stages.size() for the implicit last stage).
std::map<std::string, std::size_t> stageOfClusters(const rollout::RolloutStrategySpec& strategy,
                                                   const std::vector<RolloutCluster>& clusters);

RolloutDecision decideRollout(const rollout::RolloutStrategySpec& strategy,
                              const std::vector<RolloutCluster>& clusters, const RunRecord& record,
                              const RolloutIntent& intent, WallTime now);

// The record of a run for `template_hash` after `last`: the same run when the hash is the same;
// otherwise a new run whose previous template is the one the last run's unfinished stages kept
// (the last run's own when it completed). A first record (`last` null) starts complete: with no
// previous template there is nothing to stage, so the first template goes out at once.
RunRecord runFor(const RunRecord* last, const std::string& template_hash, std::size_t stage_count);

// After dispatch: the clusters in `written` (cluster -> objectVersion) now hold `hash` since
// `now`, unless they already did.
void recordHeld(RunRecord& record, const std::map<std::string, std::string>& written,
                const std::string& hash, WallTime now);

// The member cache has caught up with the object the run wrote (`held_version`): a generation at
// least the one written; for objects without a generation, always.
bool cacheCaughtUp(const Json& cached_object, const std::string& held_version);

}  // namespace kf::sync
