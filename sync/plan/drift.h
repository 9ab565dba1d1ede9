#pragma once
// Drift: a member object that no longer holds what the sync controller wrote there. KubeFed
// notices every change of a member object (its version differs from the one recorded when the
// controller wrote it) and writes the object again. With a drift policy (member_policy.h) the
// change is compared field by field with what the controller would write to that cluster for the
// recorded template and overrides (differingFields), and reported or left alone.
//
// Drift is only ever relative to a version recorded for the current template and overrides: a
// cluster that never received the object, or one whose recorded version belongs to an older
// template, is being propagated to, not drifted; an unchanged version (a controller or member
// API server restart, a resync) is not drift. Pure.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apis/core/federated_type_config.h"
#include "sync/plan/field_diff.h"
#include "sync/plan/member_policy.h"

namespace kf::sync {

inline constexpr char kDriftDetectedReason[] = "DriftDetected";
// The field manager member API servers name the controller's updates by (its member clients'
// user agent): never the author of a drift.
inline constexpr char kControllerUpdateManager[] = "kubefed-cpp";

// A member object as a pass finds it.
struct MemberState {
  // Its version differs from the recorded one, or (generation-based versions) its labels or
  // annotations differ from the desired ones: KubeFed writes it.
  bool changed = false;
  // A version is recorded for it under the current template and overrides hashes.
  bool version_recorded = false;
  // Some field the desired object sets holds another value, ignored fields aside.
  bool differs = false;
};

// What the pass does with it.
struct MemberUpdatePlan {
  bool write = false;
  bool report = false;  // a DriftDetected event, the metric; a ReportOnly cluster's status
  // Nothing is written, but the member's current version is recorded, so that the next pass
  // finds it unchanged (a change that is not drift).
  bool record_member_version = false;

  bool operator==(const MemberUpdatePlan&) const = default;
};

// The decision table:
//   not changed                                  -> nothing
//   changed, ServerSide, no differs              -> record the member's version, no write (the
//                                                   member changed only in fields not sent)
//   changed, no version recorded                 -> write (a propagation, never drift)
//   changed and recorded, Revert                 -> write (KubeFed's)
//   changed and recorded, ReportAndRevert        -> write; report when it differs
//   changed and recorded, ReportOnly, differs    -> report, no write, the old version kept
//   changed and recorded, ReportOnly, no differs -> record the member's version, no write
MemberUpdatePlan planMemberUpdate(const MemberPolicy& policy, const MemberState& state);

struct DriftedField {
  std::string path;             // a JSON pointer
  std::optional<Json> desired;  // what the controller would write (nullopt: nothing)
  std::optional<Json> live;     // what the member holds (nullopt: absent)
  std::string manager;          // who last wrote it in the member ("": unknown)
  // When that manager last wrote the member (its managedFields entry's time; "": unknown): the
  // member API server's clock, and the same across controller restarts.
  std::string changed_at;

  bool operator==(const DriftedField&) const = default;
};

// The differences with the manager of each from `live`'s metadata.managedFields (absent from
// cached objects: `live` must be read from the API server), ignoring `own_manager`. With
// `hide_values` each value present is kHiddenValue.
std::vector<DriftedField> attributeDrift(const std::vector<FieldDifference>& differences,
                                         const Json& live, std::string_view own_manager,
                                         bool hide_values = false);

// What a drift report shows for a value it must not show.
inline constexpr std::string_view kHiddenValue = "***";

// Whether drift reports of members of `target_type` hide their values: a v1 Secret's, as
// kubectl diff masks them. Events are readable by whoever may read a namespace's events, not
// only by who may read its Secrets, and a plan's output ends up in CI logs.
bool hidesDriftValues(const core::ApiResource& target_type);

// The DriftDetected message: `Cluster "member1" drifted from the federated object: /data/key is
// "b" (desired "a", changed by "kubectl-edit" at 2026-01-02T00:00:00Z)`; values longer than 100
// characters are cut, and fields beyond the first 10 are counted, so that a message stays small.
// Stable for the same drift, so that repeated reports of it become one event with a count and first
// and last times.
std::string driftMessage(const std::string& cluster, const std::vector<DriftedField>& fields);

}  // namespace kf::sync
