#pragma once
// Where a staged rollout keeps what it must not forget (a controller restart resumes the run, and
// rollback needs the template the clusters had): one RolloutRun object
// (rollout.kubefed-cpp.io/v1alpha1) per federated object under a strategy, in its namespace,
// named like its PropagatedVersion ("<lower-case target kind>-<name>") and owned by it so that
// garbage collection removes it with the object. Not the federated object's status: a host that
// still carries KubeFed's own CRDs would prune fields KubeFed lacks, and a lost record would send
// or roll back the wrong template after a restart.
//
//   spec:                          # what the run rolls out, and what it rolls back to
//     strategy: canary-first
//     template: {...}              # spec.template of the run's new template
//     previousTemplate: {...}      # absent for a first rollout
//   status:                        # RunRecord, written by the sync controller, with the
//     phase: WaitingForSoak        # decision's phase, stage name and message beside it
//     currentStage: canary         message: "stage canary is healthy; soaking for 5m0s"
//     templateHash: 5f3c...        previousTemplateHash: 9ab1...
//     stage: 1                     stageHealthySince: "2026-11-28T04:10:00Z"
//     failure: "stage canary: ..." rolledBack: true       (only when so)
//     clusters:
//     - {name: member1, templateHash: 5f3c..., since: "2026-11-28T04:02:00Z", version: "gen:7"}
//
// Times are RFC 3339 with whole seconds, as the API writes them.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "apis/meta/field_errors.h"
#include "apis/meta/object.h"
#include "sync/plan/rollout_plan.h"

namespace kf::sync {

inline constexpr std::string_view kRolloutRunKind = "RolloutRun";
inline constexpr std::string_view kRolloutRunResource = "rolloutruns";

Json runRecordToJson(const RunRecord& record);
// Fails with the field path of a value of the wrong type or a time that is not RFC 3339.
Result<RunRecord> runRecordFromJson(const Json& status, const meta::FieldPath& path);

// "2006-01-02T15:04:05Z" (also with a numeric offset) to a time; nullopt when it is not one.
std::optional<WallTime> parseRfc3339(std::string_view text);

}  // namespace kf::sync
