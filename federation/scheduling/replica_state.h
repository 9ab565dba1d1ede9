#pragma once
// The replicas each candidate cluster runs now and, where pods cannot be scheduled, how many it
// can hold (spec §2.7 step 4). For each candidate whose member workload (Deployment or
// ReplicaSet `ns/name`) exists:
//   * spec.replicas == status.readyReplicas: current = readyReplicas;
//   * otherwise the workload's pods are listed (spec.selector.matchLabels) and analysed:
//     current = running-and-ready pods, and if some are unschedulable for long, the estimated
//     capacity = spec.replicas - unschedulable.
// Candidates without the workload have neither entry.

#include <map>
#include <optional>
#include <string>

#include "federation/scheduling/planner.h"
#include "federation/scheduling/pod_analysis.h"

namespace kf::scheduling {

// spec.replicas and status.readyReplicas of a member workload; 0 when absent.
struct WorkloadReplicas {
  std::int64_t desired = 0;
  std::int64_t ready = 0;

  // Only then are its pods listed and analysed.
  bool podsNeeded() const { return desired != ready; }
};

// Fails, naming the field, when either is present but not an integer.
Result<WorkloadReplicas> readWorkloadReplicas(const Json& workload);

// spec.selector.matchLabels of a member workload: which pods to analyse. Fails when absent, as
// KubeFed does ("missing selector on object"), or when not a map of strings. An empty map
// selects every pod of the namespace, as in KubeFed.
Result<std::map<std::string, std::string>> podMatchLabels(const Json& workload);

// "k1=v1,k2=v2" (keys sorted): the labelSelector of the pod list.
std::string labelSelectorText(const std::map<std::string, std::string>& match_labels);

// What was observed of one candidate's member workload.
struct WorkloadObservation {
  WorkloadReplicas replicas;
  // The analysis of its pods; required when replicas.podsNeeded(), ignored otherwise.
  std::optional<PodAnalysis> pods;
};

struct ReplicaState {
  ReplicaCounts current;
  ReplicaCounts capacity;
  // Some cluster has pods unschedulable for less than the threshold: reconcile again later.
  bool needs_recheck = false;
};

// From the observations of the candidates whose workload exists, by cluster name. Fails when an
// observation that needs its pods analysed has none. An estimated capacity below 0 (more
// unschedulable pods than desired replicas, e.g. right after a scale-down) is 0.
Result<ReplicaState> replicaState(const std::map<std::string, WorkloadObservation>& observed);

}  // namespace kf::scheduling
