#pragma once
// Which federated types get a workload status (beyond KubeFed, additive; see
// status/workload_status.h), and in which shape: the API surface of the feature, shared by the
// status controller and the federated CRD generator.

#include <optional>
#include <string>
#include <string_view>

#include "apis/core/federated_type_config.h"

namespace kf::core {

// The status shape a target type reports.
enum class WorkloadKind { kDeployment, kReplicaSet, kStatefulSet, kDaemonSet, kJob };

// The FTC annotation that opts a type in (or out): the kind whose status shape the target
// follows ("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job"), or "Disabled".
// Without it the five built-in workload types (apps/v1 Deployment, ReplicaSet, StatefulSet,
// DaemonSet; batch/v1 Job) are on and every other type is off.
inline constexpr char kWorkloadStatusAnnotation[] = "kubefed.io/workload-status";
// The aggregate condition on the federated object.
inline constexpr char kWorkloadReadyCondition[] = "WorkloadReady";

// The built-in workload kind of a target type (by API group and kind); nullopt for others.
std::optional<WorkloadKind> builtInWorkloadKind(std::string_view group, std::string_view kind);

// nullopt: no workload status for the FTC's type. Fails for an annotation value it does not
// know.
Result<std::optional<WorkloadKind>> workloadKindOf(const FederatedTypeConfig& ftc);

const char* workloadKindName(WorkloadKind kind);
inline bool isJob(WorkloadKind kind) { return kind == WorkloadKind::kJob; }

}  // namespace kf::core
