#pragma once
// Workload status (beyond KubeFed, additive; kubefed#1240): what the member clusters' copies of
// a workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, or a type whose FTC opts in)
// report, per cluster and in total, on the federated object's status, with one aggregate
// condition WorkloadReady. Pure functions; the controller (workload_status_controller.h) feeds
// them the member caches and writes the result.
//
//   status:
//     workload:
//       desiredReplicas: 6, replicas: 6, readyReplicas: 5, availableReplicas: 5,
//       updatedReplicas: 6                          # Jobs: active, succeeded, failed
//       clusters:
//       - {name: member1, desiredReplicas: 3, replicas: 3, readyReplicas: 3,
//          availableReplicas: 3, updatedReplicas: 3, rolledOut: true}
//       - {name: member2, ..., rolledOut: false, message: "2/3 available"}
//     conditions:
//     - {type: WorkloadReady, status: "False", reason: NotRolledOut,
//        message: "member2 (2/3 available)", lastTransitionTime, lastUpdateTime}

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apis/core/workload_kind.h"
#include "apis/meta/object.h"

namespace kf::status {

using core::isJob;
using core::WorkloadKind;

struct Counts {
  // Pod-running workloads.
  std::int64_t desired = 0;
  std::int64_t replicas = 0;
  std::int64_t ready = 0;
  std::int64_t available = 0;
  std::int64_t updated = 0;
  // Jobs.
  std::int64_t active = 0;
  std::int64_t succeeded = 0;
  std::int64_t failed = 0;
};

struct ClusterWorkload {
  std::string cluster;
  bool reported = false;  // the member object was seen; counts are meaningful
  Counts counts;
  // Pods: observedGeneration caught up, updated == desired, available == desired (and, where
  // the kind has no updated count, available == desired); a Deployment also has no old pods
  // left (replicas == updated). Jobs: Complete.
  bool rolled_out = false;
  std::string message;  // why not, e.g. "2/3 available"; "" when rolled out
};

// The member object's status, read as `kind` reports it.
ClusterWorkload observeWorkload(WorkloadKind kind, const std::string& cluster,
                                const Json& member_object);
// A cluster that should hold the workload but does not show it (`why`: "not created",
// "cluster not ready", ...).
ClusterWorkload missingWorkload(const std::string& cluster, std::string why);

// The clusters a federated object's workload is expected in: those its propagation status
// lists (except WaitingForRemoval), plus those whose cache holds the member object.
// `member_objects` has a null entry for a cluster without it. Ordered by cluster name.
std::vector<ClusterWorkload> clusterWorkloads(
    WorkloadKind kind, const Json& federated_object,
    const std::vector<std::pair<std::string, ObjectPtr>>& member_objects);

struct WorkloadCondition {
  std::string status;  // "True" | "False"
  std::string reason;  // RolledOut | NotRolledOut | NotPlaced
  std::string message;

  bool operator==(const WorkloadCondition&) const = default;
};

struct WorkloadStatus {
  Json workload;  // status.workload
  WorkloadCondition condition;
};

WorkloadStatus summarizeWorkload(WorkloadKind kind, const std::vector<ClusterWorkload>& clusters);

// `federated_object`'s status with `desired` merged in: status.workload replaced, the
// WorkloadReady condition set (lastTransitionTime when its status changes, lastUpdateTime when
// anything of it changes); nullopt when the stored status already says all of that.
std::optional<Json> mergeWorkloadStatus(const Json& federated_object, const WorkloadStatus& desired,
                                        const std::string& now);

}  // namespace kf::status
