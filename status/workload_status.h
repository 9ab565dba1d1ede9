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
#include "apis/core/workload_observation.h"
#include "apis/meta/object.h"

namespace kf::status {

using core::isJob;
using core::WorkloadKind;

using core::ClusterWorkload;
using core::Counts;
using core::missingWorkload;
using core::observeWorkload;

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
