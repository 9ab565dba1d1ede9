#pragma once
// What one member cluster's copy of a workload reports: its counts and whether it is rolled out.
// Shared by the workload status (status/workload_status.h), which sums it up on the federated
// object, and the staged rollout's health gate (sync/plan/rollout_plan.h), which reads it from the
// member cache so that a stage never passes on a summary older than the template it sent.

#include <cstdint>
#include <string>

#include "apis/core/workload_kind.h"
#include "apis/meta/object.h"

namespace kf::core {

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
  // It will not get there by waiting: a failed Job, or a Deployment whose Progressing condition
  // is False (ProgressDeadlineExceeded).
  bool failed = false;
  std::string message;  // why not, e.g. "2/3 available"; "" when rolled out
};

// The member object's status, read as `kind` reports it.
ClusterWorkload observeWorkload(WorkloadKind kind, const std::string& cluster,
                                const Json& member_object);
// A cluster that should hold the workload but does not show it (`why`: "not created",
// "cluster not ready", ...).
ClusterWorkload missingWorkload(const std::string& cluster, std::string why);

}  // namespace kf::core
