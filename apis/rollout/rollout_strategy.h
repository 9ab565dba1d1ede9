#pragma once
// rollout.kubefed-cpp.io/v1alpha1 RolloutStrategy (beyond KubeFed, opt-in): how a change of a
// federated object's template reaches its clusters, stage by stage, each stage gated on the
// previous one being rolled out and healthy, soaked, and (optionally) approved.
//
//   apiVersion: rollout.kubefed-cpp.io/v1alpha1
//   kind: RolloutStrategy
//   metadata: {name: canary-first, namespace: <the federated objects' namespace>}
//   spec:
//     stages:
//     - name: canary
//       clusterSelector: {matchLabels: {stage: canary}}
//       soakTime: 5m              # healthy this long before the next stage starts
//     - name: rest
//       clusterSelector: {}       # {} selects every cluster
//       maxConcurrency: 2         # clusters of the stage updating at once (default: all)
//       requireApproval: true     # starts only after `kubefedctl rollout approve`
//     progressDeadline: 10m       # a cluster not healthy this long after its update fails
//     onFailure: Pause            # or Rollback
//
// A federated object opts in with the annotation kubefed-cpp.io/rollout-strategy: <name>; the
// strategy lives in the object's namespace (for a cluster-scoped federated type: in the KubeFed
// system namespace).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apis/meta/field_errors.h"
#include "apis/meta/label_selector.h"
#include "apis/meta/object.h"

namespace kf::rollout {

inline constexpr std::string_view kGroup = "rollout.kubefed-cpp.io";
inline constexpr std::string_view kVersion = "v1alpha1";
inline constexpr std::string_view kStrategyKind = "RolloutStrategy";
inline constexpr std::string_view kStrategyResource = "rolloutstrategies";
// The federated object's annotation naming its strategy.
inline constexpr std::string_view kStrategyAnnotation = "kubefed-cpp.io/rollout-strategy";

inline constexpr std::chrono::seconds kDefaultProgressDeadline{600};

enum class OnFailure { kPause, kRollback };

struct Stage {
  std::string name;
  meta::LabelSelector cluster_selector;
  std::optional<std::int64_t> max_concurrency;  // absent: every cluster of the stage at once
  std::chrono::nanoseconds soak_time{0};
  bool require_approval = false;
};

struct RolloutStrategySpec {
  std::vector<Stage> stages;
  std::chrono::nanoseconds progress_deadline = kDefaultProgressDeadline;
  OnFailure on_failure = OnFailure::kPause;
};

// Reads and validates spec (`path` names it, e.g. "spec"). Every problem is listed with its
// field path: stages missing or empty, a stage without a name or with a duplicate one, a selector
// that does not compile, maxConcurrency < 1, a duration that is not Go's syntax or negative, an
// onFailure other than Pause or Rollback.
Result<RolloutStrategySpec> readRolloutStrategySpec(const Json& spec, const meta::FieldPath& path);

// The strategy of a RolloutStrategy object (its spec), with the object's name in any error.
Result<RolloutStrategySpec> rolloutStrategyOf(const Json& object);

const char* onFailureName(OnFailure on_failure);

}  // namespace kf::rollout
