#include "apis/core/workload_kind.h"

namespace kf::core {
namespace {

struct NamedWorkloadKind {
  const char* name;
  WorkloadKind kind;
};

constexpr NamedWorkloadKind kNamedWorkloadKinds[] = {{"Deployment", WorkloadKind::kDeployment},
                                                     {"ReplicaSet", WorkloadKind::kReplicaSet},
                                                     {"StatefulSet", WorkloadKind::kStatefulSet},
                                                     {"DaemonSet", WorkloadKind::kDaemonSet},
                                                     {"Job", WorkloadKind::kJob}};

std::optional<std::string> ftcAnnotation(const FederatedTypeConfig& ftc, const char* key) {
  if (!ftc.header.metadata.is_object()) return std::nullopt;
  const auto annotations = ftc.header.metadata.find("annotations");
  if (annotations == ftc.header.metadata.end() || !annotations->is_object()) return std::nullopt;
  const auto value = annotations->find(key);
  if (value == annotations->end() || !value->is_string()) return std::nullopt;
  return value->get<std::string>();
}

}  // namespace

std::optional<WorkloadKind> builtInWorkloadKind(std::string_view group, std::string_view kind) {
  for (const NamedWorkloadKind& named : kNamedWorkloadKinds) {
    if (kind != named.name) continue;
    if (group == (named.kind == WorkloadKind::kJob ? "batch" : "apps")) return named.kind;
  }
  return std::nullopt;
}

Result<std::optional<WorkloadKind>> workloadKindOf(const FederatedTypeConfig& ftc) {
  const std::optional<std::string> annotation = ftcAnnotation(ftc, kWorkloadStatusAnnotation);
  if (!annotation) {
    return builtInWorkloadKind(ftc.spec.target_type.group, ftc.spec.target_type.kind);
  }
  if (*annotation == "Disabled") return std::optional<WorkloadKind>();
  for (const NamedWorkloadKind& named : kNamedWorkloadKinds) {
    if (*annotation == named.name) return std::optional<WorkloadKind>(named.kind);
  }
  return makeError(Reason::kInvalid,
                   "FederatedTypeConfig \"" + ftc.name() + "\": annotation " +
                       kWorkloadStatusAnnotation + " is \"" + *annotation +
                       "\"; expected Deployment, ReplicaSet, StatefulSet, DaemonSet, Job or "
                       "Disabled");
}

const char* workloadKindName(WorkloadKind kind) {
  for (const NamedWorkloadKind& named : kNamedWorkloadKinds) {
    if (named.kind == kind) return named.name;
  }
  return "";
}

}  // namespace kf::core
