#pragma once
// Pod analysis (spec §2.7 step 4): how many of a member workload's pods run, and how many the
// member's scheduler cannot place. Called with the pods matching the workload's selector when
// its ready replicas differ from its desired replicas.
//
// KubeFed's rules, kept as they are:
//   * running and ready: phase Running and a condition of type Ready (its status is NOT checked);
//   * unschedulable right now: not Running, and a condition PodScheduled=False with reason
//     Unschedulable;
//   * counted unschedulable only when that condition's lastTransitionTime is more than
//     kUnschedulableThreshold before `now`. A pod unschedulable for a shorter time makes the
//     result NeedsRecheck, so that the RSP is looked at again once the window has passed.

#include <chrono>
#include <vector>

#include "apis/meta/json_reader.h"

namespace kf::scheduling {

inline constexpr std::chrono::seconds kUnschedulableThreshold{60};

struct PodAnalysis {
  int total = 0;
  int running_and_ready = 0;
  // Unschedulable for longer than kUnschedulableThreshold.
  int unschedulable = 0;
  // Some pod is unschedulable, but not yet for longer than kUnschedulableThreshold.
  bool needs_recheck = false;
};

// `now` is the wall-clock time of the analysis (an injected clock's, in tests a fixed one).
// Fails, naming the pod and the field, when a field it reads has the wrong type or a
// lastTransitionTime it needs is not an RFC 3339 time. A missing or null lastTransitionTime is
// Go's zero time, so such a pod counts as unschedulable for long.
Result<PodAnalysis> analyzePods(const std::vector<Json>& pods,
                                std::chrono::system_clock::time_point now);

}  // namespace kf::scheduling
